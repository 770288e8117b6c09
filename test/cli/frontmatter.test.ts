/**
 * The Docusaurus front-matter fields authors copy in (id, slug, image, keywords,
 * pagination_label, pagination_prev/next, sidebar_class_name, custom_edit_url, draft,
 * unlisted, toc_min_heading_level/toc_max_heading_level, hide_title), each honoured in
 * the HTML written: test/fixtures/sites/front-matter has one doc or post per field, and
 * the table of contents and title cases add theirs. Drafts are built by `serve --watch`
 * and left out of `docsgen build`. The fields docsgen does not support are refused with
 * what to do instead.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../cli/config.ts';
import { DocsgenErrors, type DocsgenError } from '../../cli/errors.ts';
import { collect } from '../../cli/stages/collect.ts';
import { serveWatch } from '../../cli/watch.ts';
import { buildFixture } from '../helpers/build.ts';
import { makeSite } from '../helpers/fixtures.ts';
import { checkNoTempLeftovers, createCleanup, type CleanupOwner } from '../helpers/temp.ts';
import { tocOutline } from '../helpers/toc-outline.ts';

checkNoTempLeftovers();

const FIXTURE = 'front-matter';

async function buildSite(root: string, options: { drafts?: boolean } = {}): Promise<string> {
  const out = path.join(root, 'dist');
  await buildFixture(root, { outDir: out, skipCrawl: true, ...options });
  return out;
}

/** The problems a failing build or collect reports, as "file:line message | hint" lines. */
async function problems(run: Promise<unknown>): Promise<string[]> {
  const error = await run.then(
    () => assert.fail('expected the build to fail'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof DocsgenErrors, `expected DocsgenErrors, got ${String(error)}`);
  return error.errors.map((e: DocsgenError) => `${e.file}:${e.line ?? ''} ${e.message} | ${e.hint ?? ''}`);
}

async function siteWith(t: CleanupOwner, files: Record<string, string>): Promise<string> {
  const root = await makeSite(t, FIXTURE);
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  }
  return root;
}

const doc = (fields: string, body = 'Text.') => `---\ntitle: T\ndescription: D.\n${fields}\n---\n\n${body}\n`;
const titled = (title: string, fields: string, body: string) => `---\ntitle: ${title}\ndescription: D.\n${fields}\n---\n\n${body}\n`;

describe('front-matter fields in docsgen build', () => {
  const cleanup = createCleanup();
  let out: string;
  const html = (rel: string) => readFile(path.join(out, rel), 'utf8');
  /** The <li> of the sidebar, as "classes|href|label". */
  const sidebarItems = async (rel: string) =>
    [...(await html(rel)).matchAll(/<li class="(menu__list-item[^"]*)"><a class="menu__link[^"]*" href="([^"]+)"[^>]*>([^<]*)/g)].map((m) => `${m[1]}|${m[2]}|${m[3]}`);
  /** The paginator's links, as "prev|href|label". */
  const paginator = async (rel: string) =>
    [...(await html(rel)).matchAll(/pagination-nav__link--(prev|next)" href="([^"]+)">.*?pagination-nav__label">(?:« <!-- -->)?([^<]+)/g)].map((m) => `${m[1]}|${m[2]}|${m[3]}`);

  before(async () => {
    out = await buildSite(await makeSite(cleanup, FIXTURE));
  });
  after(() => cleanup.run());

  it('id replaces the file name in the doc id (which the sidebar names) and in the route', async () => {
    assert.ok(existsSync(path.join(out, 'docs/guia/com-id.html')));
    assert.ok(!existsSync(path.join(out, 'docs/guia/arquivo-renomeado.html')));
    assert.match(await html('docs/guia/com-id.html'), /<h1>Documento com id<\/h1>/);
  });

  it('slug sets the route: from the docs route with a leading slash, else from the folder', async () => {
    assert.match(await html('docs/rota-absoluta.html'), /<h1>Slug absoluto<\/h1>/);
    assert.match(await html('docs/guia/aqui/relativo.html'), /<h1>Slug relativo<\/h1>/);
    assert.ok(!existsSync(path.join(out, 'docs/guia/absoluto.html')));
  });

  it('image becomes og:image and twitter:image, resolved against the site URL', async () => {
    const page = await html('docs/guia/com-id.html');
    assert.match(page, /<meta property="og:image" content="https:\/\/minimal\.example\/img\/capa\.svg"\/>/);
    assert.match(page, /<meta name="twitter:image" content="https:\/\/minimal\.example\/img\/capa\.svg"\/>/);
    assert.match(page, /<meta name="twitter:card" content="summary_large_image"\/>/);
    assert.doesNotMatch(await html('docs/intro.html'), /og:image/);
    assert.match(await html('blog/2024/03/01/oculto.html'), /<meta property="og:image" content="https:\/\/cdn\.example\/capa\.png"\/>/);
  });

  it('keywords become the keywords meta tag, on docs and posts', async () => {
    assert.match(await html('docs/guia/com-id.html'), /<meta name="keywords" content="pagamento, rosto"\/>/);
    assert.match(await html('blog/2024/03/01/oculto.html'), /<meta name="keywords" content="novidade"\/>/);
    assert.doesNotMatch(await html('docs/intro.html'), /name="keywords"/);
  });

  it("pagination_label is what the neighbours' previous/next links call the doc", async () => {
    assert.deepEqual(await paginator('docs/intro.html'), ['next|/docs/guia/com-id|Rótulo curto']);
    assert.deepEqual(await paginator('docs/guia/primeiro-passo.html'), ['prev|/docs/guia/com-id|Rótulo curto', 'next|/docs/rota-absoluta|Slug absoluto']);
  });

  it('pagination_next names another doc by id; pagination_prev: null hides the link', async () => {
    assert.deepEqual(await paginator('docs/rota-absoluta.html'), ['prev|/docs/guia/primeiro-passo|Primeiro passo', 'next|/docs/intro|Introdução']);
    assert.deepEqual(await paginator('docs/guia/aqui/relativo.html'), []);
  });

  it('sidebar_class_name is a class of the sidebar item, on the page and in the sidebar JSON', async () => {
    assert.ok((await sidebarItems('docs/guia/primeiro-passo.html')).includes('menu__list-item destaque|/docs/guia/com-id|Documento com id'));
    const [json] = (await readdir(path.join(out, 'assets'))).filter((f) => /^sidebars-.*\.json$/.test(f));
    assert.match(await html(`assets/${json}`), /"href":"\/docs\/guia\/com-id","className":"destaque"/);
  });

  it('draft: true docs and posts are not built, nor listed in sidebars, sitemap, feeds, search or llms.txt', async () => {
    assert.ok(!existsSync(path.join(out, 'docs/guia/rascunho.html')));
    assert.ok(!existsSync(path.join(out, 'blog/2024/02/01/rascunho.html')));
    assert.ok(!existsSync(path.join(out, 'rascunho.html')), 'a draft MDX page is left out too');
    for (const rel of ['docs/intro.html', 'sitemap.xml', 'llms.txt', 'llms-full.txt', 'blog.html', 'blog/rss.xml', 'blog/archive.html', 'search/index.json']) {
      assert.doesNotMatch(await html(rel), /rascunho|Rascunho/, `${rel} mentions the draft`);
    }
  });

  it('unlisted: true pages are built with noindex and listed nowhere but their own sidebar', async () => {
    const own = await html('docs/guia/oculto.html');
    assert.match(own, /<meta name="robots" content="noindex"\/>/);
    assert.ok((await sidebarItems('docs/guia/oculto.html')).some((item) => item.includes('|/docs/guia/oculto|')), 'its own page shows it in the sidebar');
    assert.ok(!(await sidebarItems('docs/guia/primeiro-passo.html')).some((item) => item.includes('oculto')), 'other pages do not');
    assert.deepEqual(await paginator('docs/guia/oculto.html'), ['prev|/docs/guia/primeiro-passo|Primeiro passo', 'next|/docs/rota-absoluta|Slug absoluto']);
    assert.match(await html('blog/2024/03/01/oculto.html'), /<meta name="robots" content="noindex"\/>/);
    const page = await html('oculta.html');
    assert.match(page, /<meta name="robots" content="noindex"\/>/);
    assert.match(page, /<meta name="keywords" content="campanha"\/>/);
    assert.match(page, /<meta property="og:image" content="https:\/\/minimal\.example\/img\/capa\.svg"\/>/);
    assert.doesNotMatch(await html('docs/intro.html'), /name="robots"/);
    const searchFiles = (await readdir(path.join(out, 'search'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    const search = (await Promise.all(searchFiles.map((e) => readFile(path.join(e.parentPath, e.name), 'utf8')))).join('\n');
    assert.match(search, /Primeiro passo/, 'the search index holds the listed docs');
    for (const [rel, text] of [...(await Promise.all(['sitemap.xml', 'llms.txt', 'llms-full.txt', 'blog.html', 'blog/rss.xml', 'blog/archive.html'].map(async (r) => [r, await html(r)] as const))), ['search', search] as const]) {
      assert.doesNotMatch(text, /oculta?|não listad[ao]/, `${rel} lists an unlisted page`);
    }
  });
});

describe('front-matter fields that name something missing', { concurrency: 2 }, () => {
  it('two docs with the same id (one by its front matter) name both files', async (t) => {
    const root = await siteWith(t, { 'content/docs/guia/com-id.mdx': doc('') });
    const found = await problems(collect(await loadConfig(root)));
    assert.ok(found.some((p) => p.includes("Doc id 'guia/com-id' is used twice: by content/docs/guia/arquivo-renomeado.mdx and content/docs/guia/com-id.mdx.")), found.join('\n'));
  });

  it('a slug giving the URL of another doc fails the build, naming both files', async (t) => {
    const root = await siteWith(t, { 'content/docs/extra.mdx': doc('slug: /intro') });
    const found = await problems(buildSite(root));
    assert.ok(found.some((p) => p.includes('content/docs/extra.mdx and content/docs/intro.mdx would both be written to') && p.includes('`slug`')), found.join('\n'));
  });

  it('an id with a slash and a pagination_next naming no doc are reported with the fix', async (t) => {
    const root = await siteWith(t, { 'content/docs/extra.mdx': doc('id: a/b\npagination_next: guia/primeiro-paso') });
    const found = await problems(collect(await loadConfig(root)));
    assert.ok(found.some((p) => /^content\/docs\/extra\.mdx:4 Front-matter field 'id': a doc id is one path segment/.test(p)), found.join('\n'));
    const collected = await problems(collect(await loadConfig(await siteWith(t, { 'content/docs/extra.mdx': doc('pagination_next: guia/primeiro-paso') }))));
    assert.ok(collected.some((p) => p.includes("'pagination_next' names 'guia/primeiro-paso', which is not a doc.") && p.includes("Did you mean 'guia/primeiro-passo'?")), collected.join('\n'));
  });

  it('a sidebar naming a draft by id lists it in watch builds and leaves it out of docsgen build', async (t) => {
    const config = await loadConfig(await makeSite(t, FIXTURE));
    const named = { ...config, sidebars: { docs: ['intro', 'guia/rascunho'] } };
    const ids = (sidebar: readonly { type: string; id?: string }[] | undefined) => sidebar?.map((item) => item.id);
    assert.deepEqual(ids((await collect(named)).sidebars.docs), ['intro']);
    assert.deepEqual(ids((await collect(named, undefined, { drafts: true })).sidebars.docs), ['intro', 'guia/rascunho']);
  });

  it('a published page linking to a draft fails docsgen build, saying the target is a draft', async (t) => {
    const root = await siteWith(t, { 'content/docs/extra.mdx': doc('', 'See [the draft](./guia/rascunho.mdx) and [again](/docs/guia/rascunho).') });
    const found = await problems(buildSite(root));
    const draft = found.filter((p) => p.includes('a draft (`draft: true` in content/docs/guia/rascunho.mdx) that `docsgen build` leaves out'));
    assert.equal(draft.length, 1, found.join('\n'));
    assert.match(draft[0]!, /^content\/docs\/extra\.mdx:7 Broken link '\/docs\/guia\/rascunho'/);
  });

  it('an image that is no file of the site fails the build at its front-matter line', async (t) => {
    const root = await siteWith(t, { 'content/docs/extra.mdx': doc('image: /img/falta.png') });
    const found = await problems(buildSite(root));
    // Quoted as written: the page holds it as the full URL link previews need.
    assert.ok(found.some((p) => p.startsWith("content/docs/extra.mdx:4 Broken link '/img/falta.png' points to /img/falta.png")), found.join('\n'));
    const relative = await problems(collect(await loadConfig(await siteWith(t, { 'content/docs/extra.mdx': doc('image: img/capa.svg') }))));
    assert.ok(relative.some((p) => p.includes("Front-matter field 'image': an image is a path of the site starting with \"/\"")), relative.join('\n'));
  });
});

describe('front-matter syntax', { concurrency: 2 }, () => {
  it('a block opened by --- and never closed is called not closed, not missing', async (t) => {
    const root = await siteWith(t, { 'content/docs/extra.mdx': '---\ntitle: T\ndescription: D.\n\nText.\n' });
    const found = await problems(collect(await loadConfig(root)));
    assert.deepEqual(found, [
      'content/docs/extra.mdx:1 Front matter is not closed: the --- on line 1 opens it, and no --- line ends it. | Add a line with only --- after the last front-matter field, before the text of the page.',
    ]);
  });

  it('a field given twice names both lines, with a hint for that case', async (t) => {
    const root = await siteWith(t, { 'content/docs/extra.mdx': doc('sidebar_label: Extra\ntitle: Outro') });
    const found = await problems(collect(await loadConfig(root)));
    assert.deepEqual(found, [
      "content/docs/extra.mdx:5 Front matter is not valid YAML: the field 'title' is given twice, on line 2 and here. | Keep one `title:` line: remove the other, or rename it if it was meant to be another field.",
    ]);
  });
});

describe('front-matter fields docsgen does not know', { concurrency: 2 }, () => {
  it('a Docusaurus field is called one and removed with what to do instead, not matched to the nearest name', async (t) => {
    const root = await siteWith(t, {
      'content/docs/extra.mdx': doc('displayed_sidebar: docs\nsidebar_custom_props:\n  badge: novo'),
      'content/blog/2024-05-01-post.mdx': doc('date: 2024-05-01\nauthor: Ana\nhide_title: true'),
      'content/pages/sobre.mdx': doc('slug: /quem-somos\nhide_title: true'),
    });
    const found = await problems(collect(await loadConfig(root)));
    assert.deepEqual(found.sort(), [
      "content/docs/extra.mdx:4 Front-matter field 'displayed_sidebar' is a Docusaurus field docsgen does not support in docs. | Remove it. A doc shows the sidebar that lists it: list the doc in that sidebar in site.config.ts (`sidebars`).",
      "content/docs/extra.mdx:5 Front-matter field 'sidebar_custom_props' is a Docusaurus field docsgen does not support in docs. | Remove it. To style the sidebar item, give the doc a `sidebar_class_name`.",
      "content/blog/2024-05-01-post.mdx:4 Front-matter field 'date' is a Docusaurus field docsgen does not support in blog posts. | Remove it. A post takes its date from its file name (YYYY-MM-DD-slug.mdx).",
      "content/blog/2024-05-01-post.mdx:5 Front-matter field 'author' is a Docusaurus field docsgen does not support in blog posts. | Remove it. List the authors by key in `authors`, and describe each in the blog's authors.yml.",
      "content/blog/2024-05-01-post.mdx:6 Front-matter field 'hide_title' is a Docusaurus field docsgen does not support in blog posts. | Remove it. Only docs can hide their title: a post or page always shows its `title` as its heading.",
      "content/pages/sobre.mdx:4 Front-matter field 'slug' is a Docusaurus field docsgen does not support in pages. | Remove it. A page's URL is its path in the pages folder: move or rename the file.",
      "content/pages/sobre.mdx:5 Front-matter field 'hide_title' is a Docusaurus field docsgen does not support in pages. | Remove it. Only docs can hide their title: a post or page always shows its `title` as its heading.",
    ].sort());
  });

  it('an unknown field gets "did you mean" only for a near spelling', async (t) => {
    const root = await siteWith(t, { 'content/docs/extra.mdx': doc('sidebar_lable: Extra\ncolour: azul') });
    const found = await problems(collect(await loadConfig(root)));
    assert.equal(found.length, 2, found.join('\n'));
    assert.match(found[0]!, /^content\/docs\/extra\.mdx:4 Unknown front-matter field 'sidebar_lable'\. \| Did you mean 'sidebar_label'\? Allowed fields: title, /);
    assert.match(found[1]!, /^content\/docs\/extra\.mdx:5 Unknown front-matter field 'colour'\. \| Remove it, or use one of the allowed fields: title, /);
  });

  it('custom_edit_url replaces the edit link of a doc, and null removes it', async (t) => {
    const config = (await readFile(path.join(await makeSite(t), 'site.config.ts'), 'utf8')).replace('docs: {', "editUrl: 'https://git.example/edit/main/',\n  docs: {");
    const root = await siteWith(t, {
      'site.config.ts': config,
      'content/docs/proprio.mdx': doc('custom_edit_url: https://cms.example/edit/proprio'),
      'content/docs/sem.mdx': doc('custom_edit_url: null'),
    });
    const out = await buildSite(root);
    const editLinks = async (rel: string) => [...(await readFile(path.join(out, rel), 'utf8')).matchAll(/class="edit-meta__edit" href="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(await editLinks('docs/proprio/index.html'), ['https://cms.example/edit/proprio']);
    assert.deepEqual(await editLinks('docs/sem/index.html'), []);
    assert.deepEqual(await editLinks('docs/intro/index.html'), ['https://git.example/edit/main/content/docs/intro.mdx']);
  });
});

/** Headings of every level, twice over: a table of contents of any range has something to list and to nest. */
const HEADINGS = [
  '## Visão geral',
  '### Antes de começar',
  '#### Credenciais',
  '##### Escopo',
  '###### Detalhe do escopo',
  '## Erros',
  '#### Código direto',
  '### Tentar de novo',
].join('\n\nTexto.\n\n');

describe('table of contents levels and hide_title in the HTML written', () => {
  const cleanup = createCleanup();
  let out: string;
  const html = (rel: string) => readFile(path.join(out, rel), 'utf8');
  /** The right-hand and the narrow-screen tables of contents of a page, as outlines. */
  const tocs = async (rel: string) => {
    const page = await html(rel);
    const side = /<nav class="toc"[^>]*>[\s\S]*?<\/nav>/.exec(page)?.[0];
    const mobile = /<details class="toc-mobile">[\s\S]*?<\/details>/.exec(page)?.[0];
    return { side: side === undefined ? undefined : tocOutline(side), mobile: mobile === undefined ? undefined : tocOutline(mobile) };
  };
  const h1s = async (rel: string) => [...(await html(rel)).matchAll(/<h1([^>]*)>([^<]*)<\/h1>/g)].map((m) => `${m[2]}${m[1]}`);

  before(async () => {
    const root = await siteWith(cleanup, {
      'content/docs/niveis/padrao.mdx': doc('', HEADINGS),
      'content/docs/niveis/ate-h4.mdx': doc('toc_max_heading_level: 4', HEADINGS),
      'content/docs/niveis/h3-a-h5.mdx': doc('toc_min_heading_level: 3\ntoc_max_heading_level: 5', HEADINGS),
      'content/docs/niveis/so-h6.mdx': doc('toc_min_heading_level: 6\ntoc_max_heading_level: 6', HEADINGS),
      'content/blog/2024-05-01-niveis.mdx': doc('toc_min_heading_level: 3\ntoc_max_heading_level: 4', HEADINGS),
      'content/pages/niveis.mdx': doc('toc_min_heading_level: 2\ntoc_max_heading_level: 6', HEADINGS),
      'content/docs/guia/sem-titulo.mdx': titled('Sem título', 'hide_title: true', 'Texto de abertura.\n\n## Seção'),
      'content/docs/guia/titulo-proprio.mdx': titled('Título da página', 'hide_title: true', '# Título do texto\n\nTexto.\n\n## Seção'),
      'content/docs/guia/titulo-visivel.mdx': titled('Título visível', 'hide_title: false', 'Texto.'),
      'content/docs/guia/titulo-no-texto.mdx': titled('Título do sidebar', '', '# Título escrito no texto\n\nTexto.'),
    });
    out = await buildSite(root);
  });
  after(() => cleanup.run());

  it('without the fields a page lists its h2 and h3 headings, as before', async () => {
    const expected = ['visao-geral', 'visao-geral > antes-de-comecar', 'erros', 'erros > tentar-de-novo'];
    assert.deepEqual(await tocs('docs/niveis/padrao.html'), { side: expected, mobile: expected });
  });

  it('toc_max_heading_level: 4 adds the h4 headings, nested under their heading, and no h5 or h6', async () => {
    const expected = ['visao-geral', 'visao-geral > antes-de-comecar', 'visao-geral > antes-de-comecar > credenciais', 'erros', 'erros > codigo-direto', 'erros > tentar-de-novo'];
    assert.deepEqual(await tocs('docs/niveis/ate-h4.html'), { side: expected, mobile: expected });
  });

  it('toc_min_heading_level: 3 leaves the h2 headings out and their h3 headings lead the list', async () => {
    const expected = [
      'antes-de-comecar',
      'antes-de-comecar > credenciais',
      'antes-de-comecar > credenciais > escopo',
      'codigo-direto',
      'tentar-de-novo',
    ];
    assert.deepEqual(await tocs('docs/niveis/h3-a-h5.html'), { side: expected, mobile: expected });
    assert.deepEqual((await tocs('docs/niveis/so-h6.html')).side, ['detalhe-do-escopo']);
  });

  it('every heading the list links to has its id on the page (the build checked the links too)', async () => {
    const page = await html('docs/niveis/h3-a-h5.html');
    for (const [level, id] of [[3, 'antes-de-comecar'], [4, 'credenciais'], [5, 'escopo'], [4, 'codigo-direto'], [6, 'detalhe-do-escopo']] as const) {
      assert.match(page, new RegExp(`<h${level} id="${id}" class="anchor">`));
    }
  });

  it('a blog post takes the levels too, in both of its lists', async () => {
    const expected = ['antes-de-comecar', 'antes-de-comecar > credenciais', 'codigo-direto', 'tentar-de-novo'];
    assert.deepEqual(await tocs('blog/2024/05/01/niveis.html'), { side: expected, mobile: expected });
  });

  it('an MDX page accepts the levels, as in Docusaurus, and still shows no table of contents', async () => {
    assert.deepEqual(await tocs('niveis.html'), { side: undefined, mobile: undefined });
  });

  it('hide_title: true hides the title from the screen but keeps it as the h1', async () => {
    assert.deepEqual(await h1s('docs/guia/sem-titulo.html'), ['Sem título class="visually-hidden"']);
    const page = await html('docs/guia/sem-titulo.html');
    assert.match(page, /<h1 class="visually-hidden">Sem título<\/h1><header class="doc-header"><nav class="copy-page"/);
    assert.deepEqual(await h1s('docs/guia/titulo-visivel.html'), ['Título visível']);
    assert.match(await html('docs/guia/titulo-visivel.html'), /<header class="doc-header"><h1>Título visível<\/h1>/);
  });

  it('hide_title: true on a doc whose first heading is its own # title leaves that one as the only h1', async () => {
    assert.deepEqual(await h1s('docs/guia/titulo-proprio.html'), ['Título do texto']);
    assert.match(await html('docs/guia/titulo-proprio.html'), /<header class="doc-header"><nav class="copy-page"/);
  });

  it('a doc whose first heading is its own # title has that one as its only h1, without hide_title too (as in Docusaurus)', async () => {
    assert.deepEqual(await h1s('docs/guia/titulo-no-texto.html'), ['Título escrito no texto']);
    assert.match(await html('docs/guia/titulo-no-texto.html'), /<title>Título do sidebar \| Minimal<\/title>/);
  });

  it('with hide_title the title still names the page, its sidebar item and its search entry; its Markdown twin has the one h1 the page has', async () => {
    const page = await html('docs/guia/titulo-proprio.html');
    assert.match(page, /<title>Título da página \| Minimal<\/title>/);
    assert.match(page, /<a class="menu__link menu__link--active" href="\/docs\/guia\/titulo-proprio" aria-current="page">Título da página<\/a>/);
    assert.match(page, /<a class="menu__link" href="\/docs\/guia\/sem-titulo">Sem título<\/a>/);
    assert.match(await html('docs/guia/sem-titulo.md'), /^# Sem título\n/);
    // Its twin, like its page, has the doc's own h1 as its one title (llms.txt lists it under the front matter's).
    const twin = await html('docs/guia/titulo-proprio.md');
    assert.match(twin, /^# Título do texto\n/);
    assert.equal(twin.match(/^# /gm)?.length, 1, twin);
    const searchFiles = (await readdir(path.join(out, 'search'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    const search = (await Promise.all(searchFiles.map((e) => readFile(path.join(e.parentPath, e.name), 'utf8')))).join('\n');
    assert.match(search, /Sem título/);
    assert.match(search, /Título da página/);
  });
});

describe('table of contents levels that are not levels', { concurrency: 2 }, () => {
  const level = (name: string, fix: string) =>
    `Write a number without quotes from 2 to 6: the table of contents ${name === 'min' ? 'starts at' : 'goes down to'} that heading level (${fix}). Remove the field to ${name === 'min' ? 'start at h2' : 'stop at h3'}.`;
  const MIN_HINT = level('min', '3 is h3, `###` in Markdown');
  const MAX_HINT = level('max', '4 is h4, `####` in Markdown');

  it('a level that is not a whole number from 2 to 6 names the file, the line, the value and what to write', async (t) => {
    const root = await siteWith(t, {
      'content/docs/um.mdx': doc('toc_min_heading_level: 1'),
      'content/docs/sete.mdx': doc('sidebar_label: Sete\ntoc_max_heading_level: 7'),
      'content/docs/texto.mdx': doc('toc_min_heading_level: "3"'),
      'content/docs/fracao.mdx': doc('toc_max_heading_level: 3.5'),
      'content/docs/vazio.mdx': doc('toc_max_heading_level:'),
      'content/blog/2024-05-01-post.mdx': doc('toc_min_heading_level: 0'),
      'content/pages/sobre.mdx': doc('toc_max_heading_level: h4'),
    });
    const found = await problems(collect(await loadConfig(root)));
    assert.deepEqual(found.sort(), [
      `content/docs/um.mdx:4 Front-matter field 'toc_min_heading_level': a table of contents level is a whole number from 2 to 6, not 1. | ${MIN_HINT}`,
      `content/docs/sete.mdx:5 Front-matter field 'toc_max_heading_level': a table of contents level is a whole number from 2 to 6, not 7. | ${MAX_HINT}`,
      `content/docs/texto.mdx:4 Front-matter field 'toc_min_heading_level': a table of contents level is a whole number from 2 to 6, not the text "3". | ${MIN_HINT}`,
      `content/docs/fracao.mdx:4 Front-matter field 'toc_max_heading_level': a table of contents level is a whole number from 2 to 6, not 3.5. | ${MAX_HINT}`,
      `content/docs/vazio.mdx:4 Front-matter field 'toc_max_heading_level': a table of contents level is a whole number from 2 to 6, not empty. | ${MAX_HINT}`,
      `content/blog/2024-05-01-post.mdx:4 Front-matter field 'toc_min_heading_level': a table of contents level is a whole number from 2 to 6, not 0. | ${MIN_HINT}`,
      `content/pages/sobre.mdx:4 Front-matter field 'toc_max_heading_level': a table of contents level is a whole number from 2 to 6, not the text "h4". | ${MAX_HINT}`,
    ].sort());
  });

  it('a first level below the last, given or default, is reported at the field to change, with both ways out', async (t) => {
    const root = await siteWith(t, {
      'content/docs/invertido.mdx': doc('toc_min_heading_level: 4\ntoc_max_heading_level: 3'),
      'content/docs/so-minimo.mdx': doc('keywords: [a]\ntoc_min_heading_level: 5'),
      'content/blog/2024-05-01-post.mdx': doc('toc_max_heading_level: 2\ntoc_min_heading_level: 6'),
      'content/docs/ok.mdx': doc('toc_min_heading_level: 3\ntoc_max_heading_level: 3'),
      'content/docs/ok-so-maximo.mdx': doc('toc_max_heading_level: 2'),
    });
    const found = await problems(collect(await loadConfig(root)));
    assert.deepEqual(found.sort(), [
      "content/docs/invertido.mdx:5 Front-matter field 'toc_max_heading_level': 3 is below toc_min_heading_level, 4, so the table of contents would list no heading. | The table of contents lists the levels from toc_min_heading_level to toc_max_heading_level: set toc_max_heading_level to 4 or more, or toc_min_heading_level to 3 or less.",
      "content/docs/so-minimo.mdx:5 Front-matter field 'toc_min_heading_level': 5 is above the default toc_max_heading_level, 3, so the table of contents would list no heading. | Add `toc_max_heading_level: 5` (or up to 6) below it to list the h5 headings, or lower toc_min_heading_level to 2 or 3.",
      "content/blog/2024-05-01-post.mdx:4 Front-matter field 'toc_max_heading_level': 2 is below toc_min_heading_level, 6, so the table of contents would list no heading. | The table of contents lists the levels from toc_min_heading_level to toc_max_heading_level: set toc_max_heading_level to 6 or more, or toc_min_heading_level to 2 or less.",
    ].sort());
  });

  it('is reported with the other problems of the same front matter, in one run', async (t) => {
    // zod checks the range only on an object with no other problem, and a missing field is one.
    const root = await siteWith(t, { 'content/docs/dois.mdx': '---\ntitle: Dois\ntoc_min_heading_level: 4\ntoc_max_heading_level: 3\n---\n\nTexto.\n' });
    const found = await problems(collect(await loadConfig(root)));
    assert.deepEqual(
      found.map((line) => line.split(' | ')[0]).sort(),
      [
        "content/docs/dois.mdx:1 Front-matter field 'description' is missing.",
        "content/docs/dois.mdx:4 Front-matter field 'toc_max_heading_level': 3 is below toc_min_heading_level, 4, so the table of contents would list no heading.",
      ].sort(),
    );
  });
});

describe('front-matter drafts in docsgen serve --watch', () => {
  it('builds draft docs and posts, and lists them in the sidebar', async (t) => {
    const root = await makeSite(t, FIXTURE);
    const watch = await serveWatch({ root, port: 0, host: '127.0.0.1', outDir: path.join(root, 'dist'), level: 'quiet', handleSignals: false });
    t.after(() => watch.close());
    await watch.idle();
    const page = async (route: string) => {
      const res = await fetch(`${watch.url}${route}`);
      return { status: res.status, html: await res.text() };
    };
    const draft = await page('/docs/guia/rascunho');
    assert.equal(draft.status, 200);
    assert.match(draft.html, /<h1>Rascunho<\/h1>/);
    assert.equal((await page('/blog/2024/02/01/rascunho')).status, 200);
    assert.equal((await page('/rascunho')).status, 200);
    assert.match((await page('/docs/guia/primeiro-passo')).html, /<a class="menu__link" href="\/docs\/guia\/rascunho">Rascunho</);
  });

  it('build() with drafts: true writes them as watch does', async (t) => {
    const out = await buildSite(await makeSite(t, FIXTURE), { drafts: true });
    assert.match(await readFile(path.join(out, 'docs/guia/rascunho.html'), 'utf8'), /<h1>Rascunho<\/h1>/);
    assert.ok(existsSync(path.join(out, 'rascunho.html')));
  });
});
