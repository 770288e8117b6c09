/**
 * What the build takes from the site's folders: symbolic links in content/ and static/,
 * dot names in content/, dotfiles in static/, and two sources that would write the same output file.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../cli/config.ts';
import { DocsgenErrors } from '../../../cli/errors.ts';
import { collect } from '../../../cli/stages/collect.ts';
import { isPublished } from '../../../cli/stages/static-files.ts';
import { isIgnored } from '../../../cli/watch/watched-files.ts';
import { buildFixture, failingFixtureBuild } from '../../helpers/build.ts';
import { makeSite } from '../../helpers/fixtures.ts';
import { checkNoTempLeftovers, tempDir } from '../../helpers/temp.ts';

checkNoTempLeftovers();

const DOC = (title: string) => `---\ntitle: ${title}\ndescription: A doc reached through a link.\n---\n\nText of ${title}.\n`;

/** The messages of the problems collect() reports, or fails when it reports none. */
async function collectProblems(dir: string): Promise<string> {
  const error = await collect(await loadConfig(dir)).then(
    () => assert.fail('collect() accepted the site'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof DocsgenErrors, String(error));
  return error.errors.map((e) => `${e.location ?? ''} ${e.message} Fix: ${e.hint ?? ''}`).join('\n');
}

describe('symbolic links in content/', () => {
  it('follows a linked .mdx whose target lies inside the site', async (t) => {
    const dir = await makeSite(t);
    await mkdir(path.join(dir, 'shared'));
    await writeFile(path.join(dir, 'shared/extra.mdx'), DOC('Extra'));
    await symlink('../../shared/extra.mdx', path.join(dir, 'content/docs/extra.mdx'));
    const collected = await collect(await loadConfig(dir));
    const doc = collected.docs.find((d) => d.id === 'extra');
    assert.ok(doc, `the linked doc is collected; found ${collected.docs.map((d) => d.id).join(', ')}`);
    assert.equal(doc.route, '/docs/extra');
    assert.equal(doc.relFile, 'content/docs/extra.mdx');
    assert.match(doc.source, /Text of Extra\./);
  });

  it('refuses a linked .mdx whose target lies outside the site, naming the link and its target', async (t) => {
    const dir = await makeSite(t);
    const elsewhere = await tempDir(t, 'elsewhere');
    await writeFile(path.join(elsewhere, 'fora.mdx'), DOC('Fora'));
    await symlink(path.join(elsewhere, 'fora.mdx'), path.join(dir, 'content/docs/fora.mdx'));
    const problems = await collectProblems(dir);
    assert.match(problems, /content\/docs\/fora\.mdx is a symbolic link to \S*fora\.mdx .*outside the site folder/);
    assert.ok(problems.includes(path.join(elsewhere, 'fora.mdx')), problems);
  });

  it('reports a link to a folder that holds it instead of walking it for ever', async (t) => {
    const dir = await makeSite(t);
    await symlink('.', path.join(dir, 'content/docs/loop'));
    const problems = await collectProblems(dir);
    assert.match(problems, /content\/docs\/loop is a symbolic link to \., a folder that contains the link/);
    assert.equal(problems.split('\n').length, 1, 'reported once');
  });

  it('follows a linked folder inside the site once, without a loop error', async (t) => {
    const dir = await makeSite(t);
    await mkdir(path.join(dir, 'shared/more'), { recursive: true });
    await writeFile(path.join(dir, 'shared/more/um.mdx'), DOC('Um'));
    await symlink('../../shared/more', path.join(dir, 'content/docs/more'));
    const collected = await collect(await loadConfig(dir));
    assert.ok(collected.docs.some((d) => d.id === 'more/um'));
  });
});

describe('dot names in content/', () => {
  it("ignores an editor's lock file, a hidden doc and a hidden folder, as watch mode does", async (t) => {
    const dir = await makeSite(t);
    // Emacs's lock file: a link to a target that never exists.
    await symlink('user@host.1234:1700000000', path.join(dir, 'content/docs/.#intro.mdx'));
    await writeFile(path.join(dir, 'content/docs/.hidden.mdx'), DOC('Hidden'));
    await mkdir(path.join(dir, 'content/docs/.old'));
    await writeFile(path.join(dir, 'content/docs/.old/antigo.mdx'), DOC('Antigo'));
    await writeFile(path.join(dir, 'content/blog/.2024-01-01-rascunho.mdx'), DOC('Rascunho'));
    const collected = await collect(await loadConfig(dir));
    const sources = [...collected.docs, ...collected.posts, ...collected.pages].map((s) => s.relFile);
    assert.ok(sources.length > 0);
    assert.deepEqual(
      sources.filter((s) => s.split('/').some((part) => part.startsWith('.'))),
      [],
    );
    assert.ok(isIgnored(path.join(dir, 'content/docs/.hidden.mdx'), { outDir: path.join(dir, 'dist'), staticDir: path.join(dir, 'static') }), 'watch mode ignores it too');
  });
});

describe('static/', () => {
  it('publishes dotfiles only where the config lists them', () => {
    const allowed = ['.well-known/', '.nojekyll'];
    assert.equal(isPublished('img/logo.svg', allowed), true);
    assert.equal(isPublished('.secrets.yaml', allowed), false);
    assert.equal(isPublished('.private/creds.yml', allowed), false);
    assert.equal(isPublished('img/.DS_Store', allowed), false);
    assert.equal(isPublished('.well-known/security.txt', allowed), true);
    assert.equal(isPublished('.nojekyll', allowed), true);
    assert.equal(isPublished('.well-known/', ['.well-known/security.txt'], 'dir'), true);
    assert.equal(isPublished('.well-known/other.txt', ['.well-known/security.txt']), false);
  });

  it('leaves secrets out of dist/, keeps .well-known/, and publishes a link inside the site as a file', async (t) => {
    const dir = await makeSite(t);
    const staticDir = path.join(dir, 'static');
    await writeFile(path.join(staticDir, '.secrets.yaml'), 'token: s3cr3t\n');
    await mkdir(path.join(staticDir, '.private'));
    await writeFile(path.join(staticDir, '.private/creds.yml'), 'password: hunter2\n');
    await mkdir(path.join(staticDir, '.well-known'));
    await writeFile(path.join(staticDir, '.well-known/security.txt'), 'Contact: mailto:security@minimal.example\n');
    await writeFile(path.join(dir, 'LICENSE.txt'), 'License text.\n');
    await symlink('../LICENSE.txt', path.join(staticDir, 'license.txt'));
    await buildFixture(dir);
    const files = (await readdir(path.join(dir, 'dist'), { recursive: true })).map(String);
    assert.ok(!files.some((f) => f.includes('secrets') || f.includes('.private') || f.includes('creds')), files.join(', '));
    assert.equal(await readFile(path.join(dir, 'dist/.well-known/security.txt'), 'utf8'), 'Contact: mailto:security@minimal.example\n');
    const license = await lstat(path.join(dir, 'dist/license.txt'));
    assert.ok(license.isFile() && !license.isSymbolicLink(), 'the link is published as the bytes of its target');
    assert.equal(await readFile(path.join(dir, 'dist/license.txt'), 'utf8'), 'License text.\n');
  });

  it('fails the build on a link that leads outside the site, naming it and its target', async (t) => {
    const dir = await makeSite(t);
    await symlink('/etc/passwd', path.join(dir, 'static/passwd.txt'));
    const result = await failingFixtureBuild(dir);
    assert.equal(result.code, 1, result.output);
    assert.match(result.output, /static\/passwd\.txt is a symbolic link to \/etc\/passwd \(\/etc\/passwd\), outside the site folder\./);
    assert.match(result.output, /Fix: docsgen publishes only files of the site/);
    assert.ok(!existsSync(path.join(dir, 'dist')), 'nothing was published');
  });
});

describe('output paths', () => {
  it('fails when two sources write the same file, naming both and how to fix it', async (t) => {
    const dir = await makeSite(t);
    await mkdir(path.join(dir, 'content/docs/folder'), { recursive: true });
    await writeFile(path.join(dir, 'content/docs/folder.mdx'), DOC('Folder'));
    await writeFile(path.join(dir, 'content/docs/folder/index.mdx'), DOC('Folder index'));
    await mkdir(path.join(dir, 'content/pages/docs'), { recursive: true });
    await writeFile(path.join(dir, 'content/pages/docs/intro.mdx'), '---\ntitle: Page\ndescription: A page over a doc.\n---\n\nPage text.\n');
    await mkdir(path.join(dir, 'static/docs/guia'), { recursive: true });
    await writeFile(path.join(dir, 'static/docs/guia/primeiro-passo.html'), '<!DOCTYPE html><title>static</title>\n');
    const result = await failingFixtureBuild(dir);
    assert.equal(result.code, 1, result.output);
    const output = result.output;
    assert.match(output, /Found 3 output paths written by two sources:/);
    assert.match(output, /content\/docs\/folder\.mdx and content\/docs\/folder\/index\.mdx would both be written to docs\/folder\.html \(the URL \/docs\/folder\)/);
    assert.match(output, /Fix: A doc named x\.mdx and a doc x\/index\.mdx get the same URL/);
    assert.match(output, /content\/docs\/intro\.mdx and content\/pages\/docs\/intro\.mdx would both be written to docs\/intro\.html/);
    assert.match(output, /Fix: A page in the pages folder and a doc have the same URL/);
    assert.match(output, /static\/docs\/guia\/primeiro-passo\.html and content\/docs\/guia\/primeiro-passo\.mdx would both be written to docs\/guia\/primeiro-passo\.html/);
    assert.match(output, /Fix: A file in the static folder is published at its own path/);
  });
});
