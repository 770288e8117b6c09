/**
 * A large generated site (about a thousand docs) builds: every page is written under both
 * of its names, and a broken link planted in one doc fails the build with that doc's
 * file and line. Correctness only: speed is measured by `npm run bench`. Built by the
 * command, as a user would: at this size a process of its own keeps the build's memory
 * out of the test runner, and a build in the test's process saved nothing measurable.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { appendFile, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/fixtures.ts';
import { generateSite, type GeneratedSite } from '../helpers/generated-site.ts';

const DOCS = 1000;
const BUILD_TIMEOUT_MS = 15 * 60_000;

describe(`a generated site of ${DOCS} docs`, { timeout: 2 * BUILD_TIMEOUT_MS }, () => {
  let site: GeneratedSite;
  before(async () => {
    site = await generateSite(DOCS);
  });
  after(() => rm(site.dir, { recursive: true, force: true }));

  it('builds, with every doc under both of its names', async () => {
    const result = await runCli(['build', '--quiet', '--out', 'dist'], site.dir, BUILD_TIMEOUT_MS);
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    const dist = path.join(site.dir, 'dist');
    const missing = site.docs.flatMap((doc) => [`${doc.route}/index.html`, `${doc.route}.html`]).filter((file) => !existsSync(path.join(dist, file)));
    assert.deepEqual(missing, []);
    const [first, second] = await Promise.all([`${site.docs[1]!.route}/index.html`, `${site.docs[1]!.route}.html`].map((f) => readFile(path.join(dist, f))));
    assert.ok(first!.equals(second!), 'both names hold the same bytes');
    assert.match(first!.toString(), /<h1[^>]*>Documento 1<\/h1>/);
  });

  it('fails on a broken link planted in one doc, naming its file and line', async () => {
    const doc = site.docs[DOCS / 2]!;
    const file = path.join(site.dir, doc.file);
    const lines = (await readFile(file, 'utf8')).split('\n').length;
    await appendFile(file, '\nVeja [a página que não existe](/docs/nao-existe).\n');
    const result = await runCli(['build', '--quiet', '--out', 'dist'], site.dir, BUILD_TIMEOUT_MS);
    assert.equal(result.code, 1, `${result.stdout}\n${result.stderr}`);
    assert.ok(result.stderr.includes(`${doc.file}:${lines + 1}:`), `the report names ${doc.file}:${lines + 1}:\n${result.stderr}`);
    assert.match(result.stderr, /\/docs\/nao-existe/);
  });
});
