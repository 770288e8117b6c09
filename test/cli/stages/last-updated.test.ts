/**
 * "Edit this page" and "Last updated on": a fixture site in its own git repository,
 * committed at a fixed date, shows that date under each doc; a doc not committed yet
 * shows its modification time; a folder outside any repository falls back to mtimes.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { loadConfig } from '../../../cli/config.ts';
import { siteData } from '../../../cli/stages/render.ts';
import { commitDates, lastUpdated } from '../../../cli/stages/last-updated.ts';
import { createSourceTextCache, readSourceTexts } from '../../../cli/source-texts.ts';
import { EditMeta } from '../../../templates/components/EditMeta.tsx';
import { SiteContext } from '../../../templates/components/SiteContext.tsx';
import { buildFixture } from '../../helpers/build.ts';
import { makeSite } from '../../helpers/fixtures.ts';
import { repoRoot } from '../../helpers/site.ts';

const COMMITTED = '2024-02-03T04:05:06Z';
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_AUTHOR_DATE: COMMITTED,
  GIT_COMMITTER_DATE: COMMITTED,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: os.devNull,
};

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, env: GIT_ENV, stdio: 'pipe' });
}

function gitAt(date: string, cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, env: { ...GIT_ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }, stdio: 'pipe' });
}

describe('last-updated dates and edit links', () => {
  it('shows the date of the last commit, and the mtime of a file not committed', async (t) => {
    const root = await makeSite(t);
    const configFile = path.join(root, 'site.config.ts');
    await writeFile(configFile, (await readFile(configFile, 'utf8')).replace("title: 'Minimal',", "title: 'Minimal',\n  editUrl: 'https://example.com/site/edit/main/',"));
    git(root, 'init', '-q');
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'site');
    // A later commit that does not touch the doc leaves its date alone.
    await writeFile(path.join(root, 'README'), 'later\n');
    git(root, 'add', 'README');
    gitAt('2025-01-01T00:00:00Z', root, 'commit', '-q', '-m', 'later');
    const fresh = path.join(root, 'content/docs/guia/novo.mdx');
    await writeFile(fresh, '---\ntitle: Novo\ndescription: Ainda não versionado.\n---\n\nTexto.\n');
    await utimes(fresh, new Date('2023-05-06T07:08:09Z'), new Date('2023-05-06T07:08:09Z'));

    const config = await loadConfig(root);
    const outDir = path.join(root, 'dist');
    await buildFixture(config, { outDir, skipCrawl: true });

    const intro = await readFile(path.join(outDir, 'docs/intro.html'), 'utf8');
    assert.match(intro, /Last updated on <time dateTime="2024-02-03T04:05:06\.000Z">February 3, 2024<\/time>/);
    assert.match(intro, /<a class="edit-meta__edit" href="https:\/\/example\.com\/site\/edit\/main\/content\/docs\/intro\.mdx"[^>]*>.*Edit this page<\/a>/);
    const novo = await readFile(path.join(outDir, 'docs/guia/novo.html'), 'utf8');
    assert.match(novo, /<time dateTime="2023-05-06T07:08:09\.000Z">May 6, 2023<\/time>/);
  });

  it('reads every date from one git log, relative to the site root', async (t) => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'docsgen-git-'));
    t.after(() => rm(root, { recursive: true, force: true }));
    const site = path.join(root, 'site');
    await makeFiles(site, ['docs/a.mdx', 'docs/sub/b.mdx', 'other/c.mdx']);
    git(root, 'init', '-q');
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'one');
    const dates = await commitDates(site, [path.join(site, 'docs')]);
    assert.deepEqual(Object.fromEntries(dates), { 'docs/a.mdx': '2024-02-03T04:05:06.000Z', 'docs/sub/b.mdx': '2024-02-03T04:05:06.000Z' });
  });

  it('falls back to modification times outside a repository', async (t) => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'docsgen-nogit-'));
    t.after(() => rm(root, { recursive: true, force: true }));
    await makeFiles(root, ['docs/a.mdx']);
    const file = path.join(root, 'docs/a.mdx');
    await utimes(file, new Date('2022-01-02T03:04:05Z'), new Date('2022-01-02T03:04:05Z'));
    // The time as the collect stage reads it with the text.
    const [read] = readSourceTexts([{ file, real: file }], createSourceTextCache());
    const dates = lastUpdated([{ relFile: 'docs/a.mdx', mtimeMs: read!.mtimeMs }], await commitDates(root, [path.join(root, 'docs')]));
    assert.equal(dates.get('docs/a.mdx'), '2022-01-02T03:04:05.000Z');
  });

  it('shows no edit link without an edit URL, and the texts and locale of the config', async () => {
    const config = await loadConfig(path.join(repoRoot, 'test/fixtures/sites/minimal'));
    const site = { ...siteData(config), locale: { code: 'pt-BR', label: 'Português', direction: 'ltr' as const } };
    site.labels = { ...site.labels, lastUpdated: 'Atualizado em {date}.' };
    const html = renderToString(createElement(SiteContext.Provider, { value: site }, createElement(EditMeta, { lastUpdated: { iso: '2024-02-03T04:05:06.000Z', text: '3 de fevereiro de 2024' } })));
    assert.doesNotMatch(html, /Edit this page|<a /);
    assert.match(html, /Atualizado em <time dateTime="2024-02-03T04:05:06.000Z">3 de fevereiro de 2024<\/time>\./);
  });
});

async function makeFiles(root: string, files: string[]): Promise<void> {
  for (const file of files) {
    const full = path.join(root, file);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, `${file}\n`);
  }
}
