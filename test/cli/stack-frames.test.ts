/**
 * The `docsgen` command runs a JavaScript copy of the templates with a source map beside
 * each module (cli/runtime.mjs): an error thrown there must be traced back to the
 * TypeScript line, and frames in packages (React calling the component) skipped.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { createSourceMapReader } from '../../cli/stack-frames.ts';
import { checkNoTempLeftovers, tempDir } from '../helpers/temp.ts';

checkNoTempLeftovers();

describe('stack frames', () => {
  it('maps a frame of generated JavaScript to its TypeScript line through the map beside it', async (t) => {
    const dir = await tempDir(t, 'frames');
    const source = path.join(dir, 'templates', 'Broken.tsx');
    await mkdir(path.dirname(source), { recursive: true });
    await writeFile(source, "type Props = { label: string };\n\nexport function Broken(): string {\n  const props = undefined as unknown as Props;\n  return props.label;\n}\n");
    const copy = path.join(dir, 'copy', 'templates', 'Broken.mjs');
    await esbuild.build({ entryPoints: [source], outfile: copy, format: 'esm', platform: 'node', sourcemap: 'linked', sourcesContent: false, logLevel: 'silent' });
    // The stack as the command prints it (the tests run with source maps on, which would map it already).
    const lines = (await readFile(copy, 'utf8')).split('\n');
    const row = lines.findIndex((line) => line.includes('props.label'));
    assert.ok(row >= 0, 'the copy has the expression');
    const column = lines[row]!.indexOf('props.label') + 'props.'.length + 1;
    const error = new TypeError("Cannot read properties of undefined (reading 'label')");
    error.stack = `${error.name}: ${error.message}\n    at Broken (${pathToFileURL(copy).href}:${row + 1}:${column})\n    at render (${pathToFileURL(path.join(dir, 'copy', 'render.mjs')).href}:3:1)`;
    assert.deepEqual(createSourceMapReader().firstOwnFrame(error), { file: source, line: 5, column: 16 });
  });

  it('skips frames in packages and gives nothing for code run by eval (a compiled MDX document)', () => {
    const error = new Error('x');
    error.stack = [
      'Error: x',
      '    at eval (eval at run (file:///site/cli/stages/compile.mjs:10:5), <anonymous>:12:3)',
      '    at Fb (/site/node_modules/react-dom/cjs/server.js:65:44)',
    ].join('\n');
    assert.equal(createSourceMapReader().firstOwnFrame(error), undefined);
    error.stack = ['Error: x', '    at Fb (/site/node_modules/react-dom/cjs/server.js:65:44)', '    at Tabs (/site/templates/Tabs.tsx:7:9)'].join('\n');
    assert.deepEqual(createSourceMapReader().firstOwnFrame(error), { file: '/site/templates/Tabs.tsx', line: 7, column: 9 });
  });
});
