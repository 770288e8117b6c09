/**
 * The real Sorrix site, built: every route of the spec exists under both of its
 * names with identical bytes and the right title, docs sit in the sidebar the spec
 * says, and the 404, sitemap, feeds and robots.txt are there.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { parseDocument } from 'htmlparser2';
import { selectAll, selectOne } from 'css-select';
import { textContent, getAttributeValue } from 'domutils';
import type { Element } from 'domhandler';
import { builtSite, repoRoot } from '../helpers/site.ts';

const SIDEBAR_DOCS = [
  'anexo/flow', 'anexo/liquidacao', 'anexo/meios-de-pagamento', 'anexo/metadados-de-pagamento', 'anexo/roteiro-homologacao', 'anexo/slide', 'anexo/tutorial-postman', 'anexo/usuarios-sandbox',
  'api/cancelamento', 'api/comecando', 'api/conectividade', 'api/identificacao', 'api/introducao-api', 'api/pagamento', 'api/reiniciar', 'api/transacao',
  'documentacao/ambientes', 'documentacao/cenarios', 'documentacao/credenciais', 'documentacao/crm', 'documentacao/historico-de-mudancas', 'documentacao/introducao',
  'onboarding/comecando', 'onboarding/integracao', 'onboarding/introducao-api',
  'sdk/ecossistemas', 'sdk/integracao', 'sdk/introducao', 'sdk/parametros', 'sdk/publicacao-nas-lojas', 'sdk/telas', 'sdk/versoes-e-suporte',
];
const NO_SIDEBAR_DOCS = ['onboarding/endpoint', 'doc1', 'doc2', 'doc3', 'mdx'];
const BLOG_ROUTES = [
  '/blog', '/blog/archive', '/blog/tags', '/blog/tags/docusaurus', '/blog/tags/facebook', '/blog/tags/hello', '/blog/tags/hola',
  '/blog/2019/05/28/hola', '/blog/2019/05/29/hello-world', '/blog/2019/05/30/welcome',
];
const ROUTES = ['/', '/api-reference', '/onboarding-api-reference', '/docs', ...BLOG_ROUTES, ...[...SIDEBAR_DOCS, ...NO_SIDEBAR_DOCS].map((id) => `/docs/${id}`)];

let dist: string;
const read = (rel: string) => readFile(path.join(dist, rel), 'utf8');
const parse = (html: string) => parseDocument(html);
const title = (html: string) => textContent(selectOne('title', parse(html).children) ?? []);

async function frontMatterTitle(id: string): Promise<string> {
  const source = await readFile(path.join(repoRoot, 'content/docs', `${id}.mdx`), 'utf8');
  const match = /^title:\s*(.+)$/m.exec(source);
  assert.ok(match, `content/docs/${id}.mdx has a title`);
  return match[1]!.trim().replace(/^(['"])(.*)\1$/, '$2');
}

describe('the built Sorrix site', () => {
  before(async () => {
    dist = await builtSite();
  });

  it('writes every spec route as <route>/index.html and <route>.html with identical bytes', async () => {
    for (const route of ROUTES) {
      if (route === '/') {
        assert.ok(existsSync(path.join(dist, 'index.html')), 'dist/index.html');
        continue;
      }
      const a = await read(`${route.slice(1)}/index.html`);
      const b = await read(`${route.slice(1)}.html`);
      assert.equal(a, b, `${route}: the two aliases differ`);
    }
  });

  it('titles every doc "Title | Sorrix" from its front matter, with the pipe delimiter', async () => {
    for (const id of [...SIDEBAR_DOCS, ...NO_SIDEBAR_DOCS]) {
      assert.equal(title(await read(`docs/${id}.html`)), `${await frontMatterTitle(id)} | Sorrix`, id);
    }
    assert.equal(title(await read('api-reference.html')), 'API Reference | Sorrix');
    assert.equal(title(await read('onboarding-api-reference.html')), 'Onboarding API Reference | Sorrix');
    assert.equal(title(await read('blog/tags/hello.html')), '2 posts tagged with "Hello" | Sorrix');
    assert.equal(title(await read('blog/tags/hola.html')), 'One post tagged with "Hola" | Sorrix');
  });

  it('puts the sidebar docs in the "docs" sidebar with the current page marked, and the others full width', async () => {
    for (const id of SIDEBAR_DOCS) {
      const doc = parse(await read(`docs/${id}.html`));
      const sidebar = selectOne('.doc-sidebar', doc.children);
      assert.ok(sidebar, `${id} has a sidebar`);
      const current = selectAll('a[aria-current="page"]', [sidebar]);
      assert.equal(current.length, 1, `${id}: one current item`);
      assert.equal(getAttributeValue(current[0] as Element, 'href'), `/docs/${id}`);
      // The docs of the current category are in the page; every other category is a label linking to one of its docs.
      const folder = id.split('/')[0];
      const links = selectAll('a.menu__link', [sidebar]).map((a) => getAttributeValue(a as Element, 'href'));
      assert.deepEqual(links.sort(), SIDEBAR_DOCS.filter((d) => d.startsWith(`${folder}/`)).map((d) => `/docs/${d}`).sort(), `${id}: the sidebar lists the docs of its category`);
      const labels = selectAll('a.menu__caret', [sidebar]).map((a) => getAttributeValue(a as Element, 'href'));
      assert.equal(labels.length, new Set(SIDEBAR_DOCS.map((d) => d.split('/')[0])).size, `${id}: one label per category`);
      for (const href of labels) assert.ok(SIDEBAR_DOCS.some((d) => `/docs/${d}` === href), `${id}: the label linking to ${href} leads to a sidebar doc`);
    }
    for (const id of NO_SIDEBAR_DOCS) {
      const doc = parse(await read(`docs/${id}.html`));
      assert.equal(selectOne('.doc-sidebar', doc.children), null, `${id} has no sidebar`);
      assert.ok(selectOne('.doc-layout--no-sidebar', doc.children), `${id} renders full width`);
    }
  });

  it('shows the main document at /docs with the intro as canonical URL', async () => {
    const root = await read('docs/index.html');
    assert.equal(title(root), 'Introdução | Sorrix');
    assert.match(root, /<link rel="canonical" href="https:\/\/developers\.sorrix\.example\/docs\/documentacao\/introducao"\/>/);
  });

  it('gives every page the chrome of the spec: lang, skip link, navbar, footer, meta tags, Portuguese body', async () => {
    for (const route of ['/', '/docs/api/pagamento', '/blog/2019/05/28/hola', '/api-reference']) {
      const html = await read(route === '/' ? 'index.html' : `${route.slice(1)}.html`);
      const doc = parse(html);
      const htmlEl = selectOne('html', doc.children) as Element;
      assert.equal(getAttributeValue(htmlEl, 'lang'), 'en');
      assert.equal(getAttributeValue(htmlEl, 'dir'), 'ltr');
      const first = selectOne('body a', doc.children) as Element;
      assert.equal(textContent(first), 'Skip to main content', `${route}: skip link first`);
      assert.ok(selectOne('#main-content', doc.children), `${route}: skip target`);
      assert.ok(selectOne('meta[name="description"]', doc.children));
      assert.ok(selectOne('meta[property="og:title"]', doc.children));
      assert.ok(selectOne('meta[name="twitter:card"]', doc.children));
      assert.ok(selectOne('link[rel="alternate"][href="/blog/rss.xml"]', doc.children));
      assert.ok(selectOne('link[rel="alternate"][href="/blog/atom.xml"]', doc.children));
      assert.ok(selectOne('[lang="pt-BR"]', doc.children), `${route}: the body content is marked pt-BR`);
      const navLinks = selectAll('.navbar__items a', doc.children).map((a) => getAttributeValue(a as Element, 'href'));
      for (const href of ['/docs/documentacao/introducao', '/api-reference', '/docs/onboarding/introducao-api', '/onboarding-api-reference', '/docs/sdk/introducao']) {
        assert.ok(navLinks.includes(href), `${route}: navbar links ${href}`);
      }
      assert.ok(selectOne('[data-theme-toggle]', doc.children), 'colour toggle');
      assert.ok(selectOne('[data-island="search"]', doc.children), 'search slot');
      const footer = selectOne('footer.footer', doc.children) as Element;
      assert.match(textContent(footer), /Copyright © 2025 Sorrix/);
      const footerLinks = selectAll('a', [footer]).map((a) => getAttributeValue(a as Element, 'href') ?? '');
      for (const href of ['/', '/docs/documentacao/introducao', '/docs/api/introducao-api', '/docs/onboarding/introducao-api']) assert.ok(footerLinks.includes(href), `footer links ${href}`);
      assert.ok(footerLinks.some((h) => h.startsWith('https://play.google.com/')), 'Android store link');
      assert.ok(footerLinks.some((h) => h.startsWith('https://apps.apple.com/')), 'iOS store link');
    }
  });

  it("marks the navbar item of a doc's section, by the items' activeBasePath", async () => {
    const active = async (route: string) => {
      const doc = parse(await read(`${route.slice(1)}.html`));
      return selectAll('.navbar__items .navbar__link--active', doc.children).map((a) => textContent(a).trim());
    };
    assert.deepEqual(await active('/docs/sdk/telas'), ['Mobile SDK']);
    assert.deepEqual(await active('/docs/documentacao/credenciais'), ['Documentation']);
    assert.deepEqual(await active('/docs/onboarding/endpoint'), ['Onboarding']);
    assert.deepEqual(await active('/docs/api/cancelamento'), ['API Reference']);
    assert.deepEqual(await active('/api-reference'), ['API Reference'], 'an item stays marked on its own page');
    assert.deepEqual(await active('/onboarding-api-reference'), ['Onboarding']);
    assert.deepEqual(await active('/docs/anexo/flow'), []);
    // The phone menu marks the same item; only the item's own page is aria-current.
    const sdk = parse(await read('docs/sdk/telas.html'));
    const menu = selectAll('.mobile-menu__primary a.menu__link--active', sdk.children) as Element[];
    assert.deepEqual(menu.map((a) => textContent(a).trim()).filter((t) => t !== 'Next' && t !== 'English'), ['Mobile SDK']);
    assert.equal(selectOne('.navbar__items a[aria-current="page"]', sdk.children), null);
  });

  it('renders doc pages with breadcrumbs, TOC of h2-h3, prev/next, anchors and the version in the navbar only', async () => {
    const doc = parse(await read('docs/api/pagamento.html'));
    assert.ok(selectOne('nav.breadcrumbs', doc.children));
    // One docs version: as in Docusaurus, no "Version: Next" badge, but the navbar's dropdown names it.
    assert.equal(selectOne('.doc-version-badge', doc.children), null, 'no version badge on a site with one version');
    assert.match(textContent(selectOne('[data-version] .dropdown__button', doc.children) ?? []), /Next/);
    const toc = selectOne('nav.toc', doc.children) as Element;
    const tocIds = selectAll('a', [toc]).map((a) => (getAttributeValue(a as Element, 'href') ?? '').slice(1));
    const headingIds = selectAll('.markdown h2[id], .markdown h3[id]', doc.children).map((h) => getAttributeValue(h as Element, 'id'));
    assert.deepEqual(tocIds, headingIds, 'the TOC lists exactly the h2 and h3 headings');
    assert.ok(selectAll('.markdown h4[id]', doc.children).every((h) => !tocIds.includes(getAttributeValue(h as Element, 'id') ?? '')));
    const anchor = selectOne('.markdown h2 a.hash-link', doc.children) as Element;
    assert.match(getAttributeValue(anchor, 'aria-label') ?? '', /^Direct link to /);
    const pager = selectAll('.pagination-nav a', doc.children).map((a) => getAttributeValue(a as Element, 'href'));
    assert.deepEqual(pager, ['/docs/api/identificacao', '/docs/api/transacao']);
  });

  it('highlights code at build time in a light and a dark theme, with a copy button and titles', async () => {
    const html = await read('docs/api/pagamento.html');
    assert.match(html, /class="shiki shiki-themes github-light-high-contrast github-dark-default/);
    const codeCss = /<link rel="stylesheet" href="\/(assets\/code-[A-Z0-9]{8}\.css)"/.exec(html);
    assert.ok(codeCss, 'the page links the highlight stylesheet');
    assert.match(await read(codeCss[1]!), /\.sh-[a-z0-9]+\{[^}]*--shiki-dark:#/i, 'every token class carries its dark colour');
    assert.match(html, /aria-label="Copy code to clipboard"/);
    assert.doesNotMatch(html, /shiki\.(js|mjs)|highlighter/i, 'no highlighter is shipped to the browser');
  });

  it('renders the blog: newest first, reading time, authors, archive by year, tag counts', async () => {
    const list = parse(await read('blog.html'));
    const titles = selectAll('article .post-header__title', list.children).map((h) => textContent(h));
    assert.equal(titles.length, 3);
    const dates = selectAll('article time', list.children).map((t) => getAttributeValue(t as Element, 'datetime'));
    assert.deepEqual(dates, ['2019-05-30', '2019-05-29', '2019-05-28']);
    assert.match(textContent(selectOne('.blog-sidebar', list.children) ?? []), /Recent posts/);
    assert.ok(selectAll('.post-footer__more', list.children).length >= 1, 'truncated posts link to the full post');
    const post = await read('blog/2019/05/28/hola.html');
    assert.match(post, /\d+ min read/);
    assert.match(await read('blog/archive.html'), /<h2>2019<\/h2>/);
    const tags = parse(await read('blog/tags.html'));
    const counts = Object.fromEntries(selectAll('a.tag', tags.children).map((a) => [getAttributeValue(a as Element, 'href'), textContent(selectOne('.tag__count', [a]) ?? [])]));
    assert.deepEqual(counts, { '/blog/tags/docusaurus': '3', '/blog/tags/facebook': '2', '/blog/tags/hello': '2', '/blog/tags/hola': '1' });
  });

  it("gives a blog post the docs' table of contents of its h2 and h3 headings, and the blog list none", async () => {
    for (const route of ['blog/2019/05/28/hola', 'blog/2019/05/30/welcome']) {
      const post = parse(await read(`${route}.html`));
      const toc = selectOne('.blog-toc nav.toc', post.children) as Element | null;
      assert.ok(toc, `${route}: a table of contents beside the post`);
      const tocIds = selectAll('a', [toc]).map((a) => (getAttributeValue(a as Element, 'href') ?? '').slice(1));
      const headingIds = selectAll('.post .markdown h2[id], .post .markdown h3[id]', post.children).map((h) => getAttributeValue(h as Element, 'id'));
      assert.ok(tocIds.length > 0, `${route}: the post has headings`);
      assert.deepEqual(tocIds, headingIds, `${route}: the TOC lists exactly the h2 and h3 headings`);
      assert.ok(selectOne('.post details.toc-mobile', post.children), `${route}: and the same list as a disclosure for narrow screens`);
    }
    assert.equal(selectOne('nav.toc', parse(await read('blog.html')).children), null, 'the list of posts has no table of contents');
  });

  it('gives Markdown images of local files their intrinsic width and height, and a link to the file', async () => {
    for (const route of ['docs/mdx', 'docs/anexo/slide']) {
      const images = selectAll('.markdown img[src="/img/visao-geral-sorrix.svg"]', parse(await read(`${route}.html`)).children) as Element[];
      assert.ok(images.length > 0, `${route} shows the diagram`);
      for (const image of images) {
        assert.deepEqual([getAttributeValue(image, 'width'), getAttributeValue(image, 'height')], ['840', '230'], `${route}: the SVG's own size`);
        const link = image.parent as Element;
        assert.equal(link.name, 'a', `${route}: the image links to its file`);
        assert.equal(getAttributeValue(link, 'href'), '/img/visao-geral-sorrix.svg');
      }
    }
  });

  it('writes a 404 page with the original strings', async () => {
    const html = await read('404.html');
    assert.equal(title(html), 'Page Not Found | Sorrix');
    assert.match(html, /We could not find what you were looking for\./);
    assert.match(html, /Please contact the owner of the site that linked you to the original URL and let them know their link is broken\./);
  });

  it('lists every route once in sitemap.xml, and writes robots.txt, feeds and the favicon', async () => {
    const sitemap = await read('sitemap.xml');
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace('https://developers.sorrix.example', ''));
    assert.equal(new Set(locs).size, locs.length, 'no duplicates');
    for (const route of ROUTES.filter((r) => r !== '/docs')) assert.ok(locs.includes(route), `sitemap lists ${route}`);
    assert.ok(!locs.includes('/docs'), '/docs is an alias of the intro, not a page of its own');
    assert.ok(!locs.includes('/404'));
    assert.match(await read('robots.txt'), /Sitemap: https:\/\/developers\.sorrix\.example\/sitemap\.xml/);
    const rss = await read('blog/rss.xml');
    assert.equal((rss.match(/<item>/g) ?? []).length, 3);
    const atom = await read('blog/atom.xml');
    assert.equal((atom.match(/<entry>/g) ?? []).length, 3);
    assert.ok(existsSync(path.join(dist, 'favicon.ico')));
    for (const file of ['openapi/payment.yaml', 'openapi/payment.json', 'openapi/onboarding.yaml', 'openapi/onboarding.json']) {
      assert.ok(existsSync(path.join(dist, file)), file);
    }
  });

  it('bundles the client with hashed names and no build-time code', async () => {
    const html = await read('docs/api/pagamento.html');
    const script = /<script type="module" src="(\/assets\/main-[A-Z0-9]{8}\.js)"/.exec(html);
    assert.ok(script, 'the router module has a hashed name');
    const js = await read(script[1]!.slice(1));
    assert.doesNotMatch(js, /node:fs|renderToString|readFileSync/);
  });
});
