#!/usr/bin/env node
// Entry of the `docsgen` command: registers the TypeScript loader, then runs the CLI.
import { register } from 'tsx/esm/api';

register();
await import('./index.ts');
