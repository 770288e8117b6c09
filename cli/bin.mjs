#!/usr/bin/env node
// Entry of the `docsgen` command: registers the TypeScript loader with docsgen's own
// tsconfig (JSX for React, wherever the site lives), then runs the CLI.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// React renders with its production build: the same HTML, without the development checks that slow every render.
process.env.NODE_ENV ??= 'production';
register({ tsconfig: path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'tsconfig.json') });
await import('./index.ts');
