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

describe('lint boundaries', () => {
  it('cli/ may not import browser code', async () => {
    const messages = await lintFixture('cli-imports-client.ts.txt', 'cli/stages/example.ts');
    assert.equal(messages.length, 1, messages.join('\n'));
    assert.match(messages[0]!, /^no-restricted-imports: .*cli\/ runs in Node/);
  });

  it('layouts and components may not use the DOM or import client code', async () => {
    const dom = await lintFixture('component-uses-window.tsx.txt', 'templates/components/Example.tsx');
    assert.equal(dom.length, 1, dom.join('\n'));
    assert.match(dom[0]!, /^no-restricted-globals: Unexpected use of 'window'\. Server-rendered code has no DOM/);
    const imports = await lintFixture('component-imports-client.tsx.txt', 'templates/layouts/Example.tsx');
    assert.equal(imports.length, 1, imports.join('\n'));
    assert.match(imports[0]!, /^no-restricted-imports: .*may not import browser code/);
  });

  it('templates/shared/ may not import Node, and the browser may not import the build', async () => {
    const shared = await lintFixture('shared-imports-node.ts.txt', 'templates/shared/example.ts');
    assert.equal(shared.length, 1, shared.join('\n'));
    assert.match(shared[0]!, /^no-restricted-imports: .*cannot use Node modules/);
    const client = await lintFixture('client-imports-cli.ts.txt', 'templates/client/example.ts');
    assert.equal(client.length, 1, client.join('\n'));
    assert.match(client[0]!, /^no-restricted-imports: .*cannot import the build/);
  });

  it('the same code in a place where it is allowed passes', async () => {
    // The fixture's import is fine from browser code: the rule is about where code runs.
    assert.deepEqual(await lintFixture('component-uses-window.tsx.txt', 'templates/client/example.tsx'), []);
  });

  it('the repository lints clean', async () => {
    const results = await eslint.lintFiles(['cli', 'templates']);
    const problems = results.flatMap((r) => r.messages.map((m) => `${path.relative(repoRoot, r.filePath)}:${m.line}  ${m.ruleId}: ${m.message}`));
    assert.deepEqual(problems, []);
  });
});
