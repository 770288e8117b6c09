/**
 * A build loads the heavy packages of a stage only when the site needs that stage: the
 * OpenAPI validator, the Postman converter and the request-sample writers only for a site
 * with API documents, MDX's compiler and Shiki only when a document is in no cache.
 * Together they were two thirds of a second of every build's start, a quarter of a small
 * site's build. Checked on the command as a user runs it, through a module-resolution hook
 * that writes down every module the build's main thread resolves.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { makeSite } from '../helpers/fixtures.ts';
import { repoRoot } from '../helpers/site.ts';
import { createCleanup } from '../helpers/temp.ts';

const cleanup = createCleanup();

/** Packages that must not load, by the case that must not need them. */
const API_PACKAGES = ['@redocly/openapi-core', 'openapi-to-postmanv2', '@readme/httpsnippet', 'postcss'];
const COMPILER_PACKAGES = ['@mdx-js/mdx', 'shiki', 'remark-gfm'];

interface Build {
  code: number | null;
  output: string;
  /** Packages the main thread resolved a module of. */
  packages: Set<string>;
}

describe('modules a build loads', () => {
  let site: string;
  let hooks: string;

  before(async () => {
    site = await makeSite(cleanup);
    // Plain JavaScript files: they run before any TypeScript loader.
    hooks = path.join(site, 'record-imports.mjs');
    await writeFile(
      hooks,
      `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.DOCSGEN_IMPORT_LOG, result.url + '\\n');
  return result;
}
`,
    );
    await writeFile(path.join(site, 'register-hooks.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  });
  after(() => cleanup.run());

  async function build(log: string): Promise<Build> {
    const logFile = path.join(site, log);
    await rm(logFile, { force: true });
    const child = spawn(process.execPath, ['--import', pathToFileURL(path.join(site, 'register-hooks.mjs')).href, path.join(repoRoot, 'cli/bin.mjs'), 'build', '--quiet'], {
      cwd: site,
      env: { ...process.env, NO_COLOR: '1', DOCSGEN_IMPORT_LOG: logFile },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const urls = (await readFile(logFile, 'utf8')).split('\n');
    const packages = new Set(urls.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []));
    return { code, output, packages };
  }

  it('a site without API documents never loads what API pages need, and a build from the cache never loads the MDX compiler', async () => {
    const first = await build('first.log');
    assert.equal(first.code, 0, first.output);
    // The hook sees the build: a package every build uses is there.
    assert.ok(first.packages.has('react-dom'), `the hook recorded the build's modules: ${[...first.packages].join(', ')}`);
    assert.ok(first.packages.has('@mdx-js/mdx'), 'the first build compiled its documents');
    assert.deepEqual(API_PACKAGES.filter((name) => first.packages.has(name)), [], 'no API package was loaded');

    const cached = await build('cached.log');
    assert.equal(cached.code, 0, cached.output);
    assert.deepEqual(COMPILER_PACKAGES.filter((name) => cached.packages.has(name)), [], 'every document came from the cache, and the compiler stayed unloaded');
    assert.deepEqual(API_PACKAGES.filter((name) => cached.packages.has(name)), []);
  });
});
