/**
 * The boundaries of DESIGN.md are held by ESLint (eslint.config.js): each fixture in
 * test/fixtures/lint breaks one of them and is linted as if it sat where it would do
 * harm; the real tree must lint clean.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
import { repoRoot } from '../helpers/site.ts';

const eslint = new ESLint({ cwd: repoRoot });

async function lintFixture(fixture: string, as: string): Promise<string[]> {
  const text = await readFile(path.join(repoRoot, 'test/fixtures/lint', fixture), 'utf8');
  const [result] = await eslint.lintText(text, { filePath: path.join(repoRoot, as) });
  assert.ok(result);
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

/** Lints a fixture as `as` and expects exactly `count` problems, each matching `problem`. */
async function assertViolations(fixture: string, as: string, problem: RegExp, count = 1): Promise<void> {
  const messages = await lintFixture(fixture, as);
  assert.equal(messages.length, count, `${fixture} as ${as}:\n${messages.join('\n')}`);
  for (const message of messages) assert.match(message, problem);
}

const CLI = 'cli/stages/example.ts';
const CLIENT = 'templates/client/example.ts';
const SHARED = 'templates/shared/example.ts';

describe('lint boundaries', () => {
  it('cli/ may not import browser code or use the DOM', async () => {
    await assertViolations('cli-imports-client.ts.txt', CLI, /^no-restricted-imports: .*cli\/ runs in Node/);
    await assertViolations('cli-uses-document.ts.txt', CLI, /^no-restricted-globals: Unexpected use of 'document'\. Code outside templates\/client\/ never runs in a browser/);
  });

  it('cli/ and templates/ may not use `any` without a comment that lets it through', async () => {
    await assertViolations('cli-uses-any.ts.txt', CLI, /^@typescript-eslint\/no-explicit-any: Unexpected any/);
    await assertViolations('cli-uses-any.ts.txt', 'templates/components/example.ts', /^@typescript-eslint\/no-explicit-any: Unexpected any/);
  });

  it('layouts and components may not use the DOM, even in an effect, nor import client code or the build', async () => {
    await assertViolations('component-uses-window.tsx.txt', 'templates/components/Example.tsx', /^no-restricted-globals: Unexpected use of 'window'\. Code outside templates\/client\/ never runs in a browser/);
    await assertViolations('component-uses-document-in-effect.tsx.txt', 'templates/components/Example.tsx', /^no-restricted-globals: Unexpected use of 'localStorage'/);
    await assertViolations('component-imports-client.tsx.txt', 'templates/layouts/Example.tsx', /^no-restricted-imports: .*may not import browser code/);
    await assertViolations('component-imports-cli.tsx.txt', 'templates/layouts/Example.tsx', /^no-restricted-imports: .*do not import the build/);
  });

  it('templates/shared/ may import neither Node, nor either side, nor use their globals', async () => {
    await assertViolations('shared-imports-node.ts.txt', SHARED, /^no-restricted-imports: .*cannot use Node modules/);
    await assertViolations('shared-imports-template-code.ts.txt', SHARED, /^no-restricted-imports: .*imports only itself/, 2);
    assert.deepEqual(
      (await lintFixture('shared-uses-globals.ts.txt', SHARED)).map((m) => m.split('.')[0]),
      ["no-restricted-globals: Unexpected use of 'document'", "no-restricted-globals: Unexpected use of 'process'"],
    );
  });

  it('the browser may not import the build or Node, nor use Node globals', async () => {
    await assertViolations('client-imports-cli.ts.txt', CLIENT, /^no-restricted-imports: .*cannot import the build/);
    await assertViolations('client-imports-node.ts.txt', CLIENT, /^no-restricted-imports: .*cannot use Node modules/, 2);
    await assertViolations('client-uses-process.ts.txt', CLIENT, /^no-restricted-globals: Unexpected use of 'process'\. Browser and shared code cannot use Node globals/);
  });

  it('the same code in a place where it is allowed passes', async () => {
    // The rules are about where code runs: each fixture is fine on the side it belongs to.
    assert.deepEqual(await lintFixture('component-uses-window.tsx.txt', 'templates/client/example.tsx'), []);
    assert.deepEqual(await lintFixture('component-uses-document-in-effect.tsx.txt', 'templates/client/example.tsx'), []);
    assert.deepEqual(await lintFixture('cli-uses-document.ts.txt', CLIENT), []);
    assert.deepEqual(await lintFixture('client-imports-node.ts.txt', CLI), []);
    assert.deepEqual(await lintFixture('client-uses-process.ts.txt', CLI), []);
    // Bare `buffer`, `process` and `url` are the npm shims the API reference bundles, not Node's modules.
    assert.deepEqual(await lintFixture('client-imports-shims.ts.txt', CLIENT), []);
  });

  it('the repository lints clean', async () => {
    const results = await eslint.lintFiles(['cli', 'templates']);
    const problems = results.flatMap((r) => r.messages.map((m) => `${path.relative(repoRoot, r.filePath)}:${m.line}  ${m.ruleId}: ${m.message}`));
    assert.deepEqual(problems, []);
  });
});
