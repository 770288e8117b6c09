/**
 * The blog feeds and the sitemap are XML that other programs read: they must parse, a
 * title shows as the text the author wrote (feed readers render Atom `type="html"` and
 * RSS CDATA as HTML), and every sitemap URL is a valid, percent-encoded URL.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parseDocument } from 'htmlparser2';
import { textContent, findAll } from 'domutils';
import { buildFixture } from '../../helpers/build.ts';
import { makeSite } from '../../helpers/fixtures.ts';
import { createCleanup } from '../../helpers/temp.ts';

const TITLE = 'Olá <img src=x onerror=alert(1)> & "aspas" ]]> fim';
const DESCRIPTION = 'Uma descrição <script>alert(2)</script> & mais';

// any: the parsed XML has no static shape; the tests read the few paths they need and fail if they are missing.
type Xml = any;

let dir = '';
const read = (file: string) => readFile(path.join(dir, 'dist', file), 'utf8');
const parser = new XMLParser({
  ignoreAttributes: false,
  cdataPropName: '#cdata',
  isArray: (name) => ['entry', 'item', 'url', '#cdata'].includes(name),
});

/** What a feed reader shows for an HTML-typed text: its elements (there should be none) and its text. */
function asReaderShowsIt(html: string): { elements: string[]; text: string } {
  const doc = parseDocument(html, { decodeEntities: true });
  return { elements: findAll(() => true, doc.children).map((e) => e.name), text: textContent(doc) };
}

/** A text node as fast-xml-parser gives it: CDATA sections, or plain text with XML entities decoded. */
function xmlText(node: unknown): string {
  if (typeof node === 'string') return node;
  const value = node as { '#cdata'?: string[]; '#text'?: string };
  return value['#cdata']?.join('') ?? value['#text'] ?? '';
}

const cleanup = createCleanup();

describe('feeds and sitemap with hostile titles and file names', () => {
  before(async () => {
    dir = await makeSite(cleanup, 'hostile-feed');
    await buildFixture(dir);
  });
  after(() => cleanup.run());

  for (const file of ['blog/atom.xml', 'blog/rss.xml', 'sitemap.xml']) {
    it(`${file} is well-formed XML`, async () => {
      assert.equal(XMLValidator.validate(await read(file)), true);
    });
  }

  const feeds = [
    { file: 'blog/atom.xml', entries: (xml: Xml) => xml.feed.entry, link: 'id', fields: { title: TITLE, summary: DESCRIPTION } },
    { file: 'blog/rss.xml', entries: (xml: Xml) => xml.rss.channel.item, link: 'link', fields: { title: TITLE, description: DESCRIPTION } },
  ];
  for (const feed of feeds) {
    it(`${feed.file} shows the post's title and description as written, with no markup a reader would run`, async () => {
      const entries = feed.entries(parser.parse(await read(feed.file)) as Xml) as Record<string, unknown>[];
      const entry = entries.find((e) => xmlText(e[feed.link]) === 'https://minimal.example/blog/2024/02/03/hostil');
      assert.ok(entry, 'the post is in the feed');
      for (const [field, expected] of Object.entries(feed.fields)) {
        const shown = asReaderShowsIt(xmlText(entry[field]));
        assert.deepEqual(shown.elements, [], `${field} holds no elements`);
        assert.equal(shown.text, expected);
      }
    });
  }

  it('every sitemap URL is a valid URL written in its encoded form, and names the page it stands for', async () => {
    const locs = (parser.parse(await read('sitemap.xml')).urlset.url as { loc: string }[]).map((u) => xmlText(u.loc));
    for (const loc of locs) assert.equal(new URL(loc).href, loc, `${loc} is not written as a URL`);
    const paths = locs.map((loc) => decodeURIComponent(new URL(loc).pathname));
    assert.ok(paths.includes('/docs/guia/My Doc'), paths.join('\n'));
    assert.ok(paths.includes('/docs/guia/Perguntas & respostas'), paths.join('\n'));
  });
});
