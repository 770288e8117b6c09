/**
 * A rebuild in one build session (what `serve --watch` runs) after an edit, and after a
 * save that changes only a file's date, gives the same pages, twins and llms files as
 * a clean build of the same files, and so does one after a new title. The rebuilds leave
 * the twins for later, as watch mode does.
 */
import assert from 'node:assert/strict';
import { readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { buildSite, createBuildSession, type SiteOutput } from '../../../cli/build.ts';
import type { OutputAsset } from '../../../cli/stages/bundle.ts';
import { loadConfig } from '../../../cli/config.ts';
import { createLogger } from '../../../cli/log.ts';
import { makeSite } from '../../helpers/fixtures.ts';

function snapshot(site: SiteOutput): Map<string, string> {
  const decoder = new TextDecoder();
  const out = new Map<string, string>();
  // Highlighted code's class names (and so the highlight stylesheet's name) differ between
  // build sessions today, whatever the pages hold (docsgen's own cold-versus-warm build test
  // fails on it too): they are not what this test is about, so they are left out.
  for (const page of site.pages) out.set(page.route, page.html.replace(/\/assets\/code-[A-Z0-9]+\.css/g, '/assets/code.css').replace(/\bsh-[a-z0-9]+/g, 'sh-'));
  for (const file of [...site.generated, ...(site.markdown?.make() ?? [])]) if (/\.(md|txt)$/.test(file.path)) out.set(file.path, decoder.decode(file.contents));
  return out;
}

function assertSame(rebuilt: Map<string, string>, clean: Map<string, string>): void {
  assert.deepEqual([...rebuilt.keys()].sort(), [...clean.keys()].sort());
  const differ = [...clean.keys()].filter((key) => rebuilt.get(key) !== clean.get(key));
  const first = differ[0];
  if (first) {
    const [a, b] = [rebuilt.get(first)!, clean.get(first)!];
    let i = 0;
    while (a[i] === b[i]) i++;
    assert.fail(`${differ.join(', ')} differ from a clean build; ${first} first at ${i}: ${JSON.stringify(a.slice(i - 80, i + 120))} instead of ${JSON.stringify(b.slice(i - 80, i + 120))}`);
  }
}

describe('Markdown twins and dates in a rebuild', () => {
  it('match a clean build after an edit and after a save that only moves the date', async (t) => {
    const root = await makeSite(t);
    const config = await loadConfig(root);
    const logger = createLogger({ level: 'quiet' });
    const session = createBuildSession();
    const clean = async () => snapshot(await buildSite(config, { logger, session: createBuildSession(), searchIndex: 'later' }));
    const rebuild = async () => snapshot(await buildSite(config, { logger, session, searchIndex: 'later', markdown: 'later' }));

    const intro = path.join(root, 'content/docs/intro.mdx');
    await utimes(intro, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
    const first = await rebuild();
    assert.match(first.get('/docs/intro')!, /<time dateTime="2020-01-01T00:00:00\.000Z">/);
    assert.ok(first.has('docs/intro.md') && first.has('llms.txt') && first.has('llms-full.txt'));

    await writeFile(intro, (await readFile(intro, 'utf8')).replace(/\n*$/, '\n\nUma frase nova, com um [link](/docs/intro).\n'));
    await utimes(intro, new Date('2021-01-01T00:00:00Z'), new Date('2021-01-01T00:00:00Z'));
    const edited = await rebuild();
    assert.match(edited.get('docs/intro.md')!, /Uma frase nova, com um \[link\]\(https:\/\/minimal\.example\/docs\/intro\)\./);
    assertSame(edited, await clean());

    await utimes(intro, new Date('2022-01-01T00:00:00Z'), new Date('2022-01-01T00:00:00Z'));
    const touched = await rebuild();
    assert.match(touched.get('/docs/intro')!, /<time dateTime="2022-01-01T00:00:00\.000Z">/, 'a new date alone renders the page again');
    assertSame(touched, await clean());

    // The session keeps the last llms.txt while what it lists is unchanged: a new title is a change.
    await writeFile(intro, (await readFile(intro, 'utf8')).replace(/^title: .*$/m, 'title: Um título novo'));
    const retitled = await rebuild();
    assert.match(retitled.get('llms.txt')!, /\[Um título novo\]/);
    assertSame(retitled, await clean());
  });

  it('are handed to the writer as soon as they are made, when a build asks: the output then lists their paths only', async (t) => {
    const root = await makeSite(t);
    const config = await loadConfig(root);
    const logger = createLogger({ level: 'quiet' });
    const whole = await buildSite(config, { logger, session: createBuildSession(), searchIndex: 'later' });
    const handed: OutputAsset[] = [];
    const early = await buildSite(config, { logger, session: createBuildSession(), searchIndex: 'later', writeGenerated: async (files) => void handed.push(...files) });
    const twins = whole.generated.filter((file) => /\.md$|^llms(-full)?\.txt$/.test(file.path));
    assert.ok(twins.some((file) => file.path === 'docs/intro.md'));
    assert.deepEqual(handed.map((file) => file.path).sort(), twins.map((file) => file.path).sort(), 'every twin, llms.txt and llms-full.txt, and nothing else');
    for (const file of handed) assert.deepEqual(file.contents, twins.find((twin) => twin.path === file.path)!.contents, `${file.path} as a build that holds it`);
    assert.deepEqual([...early.generatedWritten].sort(), handed.map((file) => file.path).sort());
    assert.deepEqual(early.generated.filter((file) => early.generatedWritten.includes(file.path)), [], 'not held a second time');
    assert.equal(early.linksChecked, whole.linksChecked);
  });

  it('left for later, are listed by path at once and made with the same bytes when asked, links to them checked all the same', async (t) => {
    const root = await makeSite(t);
    // A link to a twin, which the in-memory check must find among the paths.
    const intro = path.join(root, 'content/docs/intro.mdx');
    await writeFile(intro, `${await readFile(intro, 'utf8')}\n\nEm Markdown: [esta página](/docs/intro.md).\n`);
    const config = await loadConfig(root);
    const logger = createLogger({ level: 'quiet' });
    const whole = await buildSite(config, { logger, session: createBuildSession(), searchIndex: 'later' });
    const later = await buildSite(config, { logger, session: createBuildSession(), searchIndex: 'later', markdown: 'later' });
    const twins = whole.generated.filter((file) => /\.md$|^llms(-full)?\.txt$/.test(file.path));
    assert.ok(later.markdown, 'the output says how to make them');
    assert.deepEqual(later.generated.filter((file) => /\.md$|^llms(-full)?\.txt$/.test(file.path)), [], 'not in the output yet');
    assert.deepEqual([...later.markdown.paths].sort(), twins.map((file) => file.path).sort());
    const made = later.markdown.make();
    assert.deepEqual(made.map((file) => file.path).sort(), [...later.markdown.paths].sort());
    for (const file of made) assert.deepEqual(file.contents, twins.find((twin) => twin.path === file.path)!.contents, `${file.path} as a build that makes it at once`);
    assert.equal(later.linksChecked, whole.linksChecked);
  });
});
