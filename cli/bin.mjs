#!/usr/bin/env node
// Entry of the `docsgen` command: runs the JavaScript copy of docsgen's TypeScript
// (cli/runtime.mjs), made first if a source changed.
import { prepareRuntime } from './runtime.mjs';

// React renders with its production build: the same HTML, without the development checks that slow every render.
process.env.NODE_ENV ??= 'production';
const runtime = await prepareRuntime();
await import(runtime.url);
