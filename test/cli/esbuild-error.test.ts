/**
 * esbuild's failures become docsgen errors one way, wherever esbuild runs (client
 * bundle, .tsx pages, templates in watch mode): file:line:column with a 1-based column,
 * the line itself and a caret under the column.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as esbuild from 'esbuild';
import { esbuildError } from '../../cli/esbuild-error.ts';
import { DocsgenError, formatError } from '../../cli/errors.ts';

async function failure(options: esbuild.BuildOptions): Promise<unknown> {
  return esbuild.build({ write: false, logLevel: 'silent', bundle: true, ...options }).then(
    () => assert.fail('the build was expected to fail'),
    (error: unknown) => error,
  );
}

describe('esbuild errors', () => {
  it('names the place, shows the line and points at the column', async () => {
    const error = esbuildError(await failure({ stdin: { contents: 'const a = 1;\nconst b = (;\n', sourcefile: 'templates/X.tsx', loader: 'tsx' } }), {
      what: 'Templates could not be compiled',
      hint: 'Fix it.',
    });
    assert.ok(error instanceof DocsgenError);
    assert.equal(error.message, 'Templates could not be compiled: Unexpected ";"');
    assert.equal(error.location, 'templates/X.tsx:2:12');
    assert.equal(error.excerpt, '> 2 | const b = (;\n    |            ^');
    assert.match(formatError(error), /^templates\/X\.tsx:2:12 {2}Templates could not be compiled: Unexpected ";"\n> 2 \| const b = \(;\n {4}\| {12}\^\n {2}Fix: Fix it\.$/);
  });

  it('names the file the author knows when asked to', async () => {
    const error = esbuildError(await failure({ stdin: { contents: 'export default <div>;', sourcefile: '/abs/cache/page.tsx', loader: 'tsx' } }), {
      what: 'Page could not be compiled',
      file: 'content/pages/page.tsx',
      hint: 'Fix it.',
    });
    assert.match(error.location, /^content\/pages\/page\.tsx:1:\d+$/);
  });

  it("passes on a plugin's own DocsgenError as it is", async () => {
    const own = new DocsgenError('Browser code imports node:fs.', { hint: 'Move it out of templates/client.' });
    const plugin: esbuild.Plugin = {
      name: 'refuse',
      setup(build) {
        build.onResolve({ filter: /^node:fs$/ }, () => {
          throw own;
        });
      },
    };
    const error = esbuildError(await failure({ stdin: { contents: "import 'node:fs';" }, plugins: [plugin] }), { what: 'Client bundle failed', hint: 'x' });
    assert.equal(error, own);
  });
});
