/**
 * The Markdown twins and llms.txt of the real built site: every page that has a twin
 * links it from its <head>, the twin exists, starts with the page's title as H1, holds
 * no HTML outside code, and every link in it resolves; llms.txt has the llmstxt.org
 * shape, lists every doc once in sidebar order, and every URL it names answers 200.
 */
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { visit } from 'unist-util-visit';
import { loadConfig, type SiteConfig } from '../../cli/config.ts';
import type { RunningServer } from '../../cli/serve.ts';
import { collect, flattenSidebar } from '../../cli/stages/collect.ts';
import { loadApiDocuments } from '../../cli/stages/openapi.ts';
import { builtSite, repoRoot, serveBuiltSite } from '../helpers/site.ts';

function parse(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

function decode(text: string): string {
  return text.replace(/&amp;/g, '&').replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.html') && !e.name.endsWith('index.html'))
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .concat(['index.html']);
}

/** The file a site URL path names in the built folder, as the server maps it. */
function fileOf(dist: string, pathname: string): string | undefined {
  const clean = decodeURIComponent(pathname).replace(/\/+$/, '');
  const candidates = clean === '' ? ['index.html'] : [clean.slice(1), `${clean.slice(1)}.html`, `${clean.slice(1)}/index.html`];
  return candidates.map((c) => path.join(dist, c)).find((file) => statSync(file, { throwIfNoEntry: false })?.isFile());
}

describe('Markdown twins (real site)', () => {
  let dist: string;
  let config: SiteConfig;
  /** Twin URL path -> the title of the page that links it. */
  const twins = new Map<string, string>();

  before(async () => {
    dist = await builtSite();
    config = await loadConfig(repoRoot);
    for (const file of await htmlFiles(dist)) {
      const html = await readFile(path.join(dist, file), 'utf8');
      const href = /<link rel="alternate" type="text\/markdown" href="([^"]+)"/.exec(html)?.[1];
      if (!href) continue;
      const title = decode(/<title>([^<]*)<\/title>/.exec(html)![1]!);
      twins.set(href, title === config.title ? title : title.replace(new RegExp(` \\| ${config.title}$`), ''));
    }
  });

  it('links a twin from every page but the 404, and writes one for every route', async () => {
    const collected = await collect(config);
    const expected = [
      '/index.md',
      ...collected.docs.map((d) => `${d.route}.md`),
      ...collected.posts.map((p) => `${p.route}.md`),
      ...['', '/archive', '/tags', ...collected.tags.map((t) => t.route.slice(config.blog.routeBasePath.length))].map((r) => `${config.blog.routeBasePath}${r}.md`),
      ...config.apiReferences.map((r) => `${r.route}.md`),
    ];
    for (const href of expected) assert.ok(twins.has(href), `no page links ${href} as its Markdown twin`);
    for (const file of await htmlFiles(dist)) {
      const html = await readFile(path.join(dist, file), 'utf8');
      if (file === '404.html') assert.doesNotMatch(html, /type="text\/markdown"/, 'the 404 page has no twin');
      else assert.match(html, /<link rel="alternate" type="text\/markdown"/, `${file} names no twin`);
      const route = file === 'index.html' ? '/' : `/${file.replace(/\.html$/, '')}`;
      if (file !== '404.html') assert.ok(existsSync(path.join(dist, `${route === '/' ? 'index' : route.slice(1)}.md`)), `${route} has no ${route}.md`);
    }
  });

  it('each twin exists, starts with its page title as H1 and has no HTML outside code', async () => {
    assert.ok(twins.size > 30);
    for (const [href, title] of twins) {
      const file = path.join(dist, href.slice(1));
      assert.ok(existsSync(file), `${href} is linked but was not written`);
      const text = await readFile(file, 'utf8');
      assert.equal(text.split('\n')[0], `# ${title}`, `${href} must start with its page title as H1`);
      const html: string[] = [];
      visit(parse(text), (node) => {
        if (node.type === 'html') html.push(node.value);
      });
      assert.deepEqual(html, [], `${href} holds HTML outside code blocks`);
    }
  });

  it('every link in every twin resolves, anchors included', async () => {
    const origin = config.url.replace(/\/+$/, '');
    const problems: string[] = [];
    const htmlCache = new Map<string, string>();
    for (const href of twins.keys()) {
      const tree = parse(await readFile(path.join(dist, href.slice(1)), 'utf8'));
      const urls: string[] = [];
      visit(tree, (node) => {
        if (node.type === 'link' || node.type === 'image' || node.type === 'definition') urls.push(node.url);
      });
      for (const url of urls) {
        if (url.startsWith('/') || url.startsWith('#') || url.startsWith('.')) {
          problems.push(`${href}: ${url} is not absolute`);
          continue;
        }
        if (!url.startsWith(`${origin}/`)) continue;
        const target = new URL(url);
        const file = fileOf(dist, target.pathname);
        if (!file) {
          problems.push(`${href}: ${url} names no file`);
          continue;
        }
        const anchor = decodeURIComponent(target.hash.slice(1));
        if (!anchor || !file.endsWith('.html')) continue;
        const page = htmlCache.get(file) ?? (await readFile(file, 'utf8'));
        htmlCache.set(file, page);
        if (!page.includes(`id="${anchor}"`)) problems.push(`${href}: ${url} names no element #${anchor}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('turns components into Markdown: admonitions, tabs, sequence diagrams, slides', async () => {
    const text = await readFile(path.join(dist, 'docs/mdx.md'), 'utf8');
    assert.match(text, /^> \*\*Warning:\*\* /m, 'an untitled admonition is a quote led by its kind');
    assert.match(text, /^> \*\*Aviso com título:\*\* /m, 'a titled one is led by its title');
    assert.match(text, /^\*\*curl\*\*\n\n```bash\ncurl https:\/\/sandbox\.api\.sorrix\.example\/v1\/health\n```/m, 'each tab is its label and its code');
    assert.match(text, /^1\. \*\*App do lojista\*\* → \*\*Backend do lojista\*\*: capture_token$/m, 'a diagram is its steps');
    assert.ok(text.indexOf('**Primeiro slide**') < text.indexOf('**Segundo slide**'), 'slides come in order');
    assert.doesNotMatch(text, /<(Tabs|TabItem|Admonition|SequenceDiagram|Slide)\b(?![^`]*`)/, 'no component tag outside code');
  });

  it('the API twins list every operation and webhook with method, path and examples', async () => {
    const apis = await loadApiDocuments(
      config.apiReferences.map((r) => ({ id: r.id, file: path.resolve(repoRoot, r.spec) })),
      repoRoot,
    );
    for (const api of apis) {
      const ref = config.apiReferences.find((r) => r.id === api.id)!;
      const text = await readFile(path.join(dist, `${ref.route.slice(1)}.md`), 'utf8');
      for (const op of api.operations) {
        const line = `\`${op.kind === 'webhook' ? 'WEBHOOK' : op.method} ${op.path}\` · operation \`${op.operationId}\``;
        assert.ok(text.includes(line), `${ref.route}.md lacks ${op.operationId} (${line})`);
      }
      assert.match(text, /^\*\*Errors\*\*$/m);
      assert.match(text, /^```json\n\{/m, 'response examples are JSON code blocks');
      assert.ok(text.includes(`${config.url}/openapi/${api.id}.yaml`), 'the twin links the OpenAPI download');
    }
  });
});

describe('llms.txt (real site)', () => {
  let dist: string;
  let config: SiteConfig;
  let server: RunningServer;

  before(async () => {
    dist = await builtSite();
    config = await loadConfig(repoRoot);
    server = await serveBuiltSite();
  });
  after(async () => {
    await server?.close();
  });

  /** The llmstxt.org shape, line by line: H1, blockquote, then H2 sections of link lines. */
  function sections(text: string): { title: string; links: { name: string; url: string; notes?: string }[] }[] {
    const lines = text.split('\n');
    assert.match(lines[0]!, /^# \S/, 'first line is the H1');
    assert.equal(lines[1], '');
    assert.match(lines[2]!, /^> \S/, 'then a one-line blockquote summary');
    const out: { title: string; links: { name: string; url: string; notes?: string }[] }[] = [];
    for (const line of lines.slice(3)) {
      if (line === '') continue;
      const heading = /^## (.+)$/.exec(line);
      if (heading) {
        out.push({ title: heading[1]!, links: [] });
        continue;
      }
      const link = /^- \[([^\]]+)\]\((\S+)\)(?:: (.+))?$/.exec(line);
      assert.ok(link && out.length > 0, `not a "- [name](url): notes" line inside a section: ${line}`);
      out[out.length - 1]!.links.push({ name: link[1]!, url: link[2]!, notes: link[3] });
    }
    return out;
  }

  it('has the llmstxt.org shape, the site title and its sidebar categories as sections', async () => {
    const text = await readFile(path.join(dist, 'llms.txt'), 'utf8');
    assert.equal(text.split('\n')[0], `# ${config.title}`);
    const found = sections(text);
    const categories = Object.values((await collect(config)).sidebars).flatMap((items) => items.filter((i) => i.type === 'category').map((i) => i.label));
    assert.deepEqual(found.map((s) => s.title).slice(0, categories.length), categories);
    assert.ok(found.some((s) => s.title === 'API reference'));
    assert.equal(found[found.length - 1]!.title, 'Optional', 'the blog comes last, under Optional');
  });

  it('lists every doc once, the sidebar docs in sidebar order', async () => {
    const collected = await collect(config);
    const origin = config.url.replace(/\/+$/, '');
    const docUrls = new Set(collected.docs.map((d) => `${origin}${d.route}.md`));
    const listed = sections(await readFile(path.join(dist, 'llms.txt'), 'utf8'))
      .flatMap((s) => s.links.map((l) => l.url))
      .filter((url) => docUrls.has(url));
    assert.equal(new Set(listed).size, listed.length, 'a doc is listed twice');
    assert.deepEqual([...listed].sort(), [...docUrls].sort(), 'every doc is listed');
    const sidebarOrder = Object.values(collected.sidebars).flatMap((items) => flattenSidebar(items)).map((d) => `${origin}${d.route}.md`);
    assert.deepEqual(listed.slice(0, sidebarOrder.length), sidebarOrder);
  });

  it('every URL it names answers 200 from the server', async () => {
    const origin = config.url.replace(/\/+$/, '');
    const urls = sections(await readFile(path.join(dist, 'llms.txt'), 'utf8')).flatMap((s) => s.links.map((l) => l.url));
    for (const url of urls) {
      assert.ok(url.startsWith(`${origin}/`), `${url} is not on the site`);
      const response = await fetch(`http://127.0.0.1:${server.port}${new URL(url).pathname}`);
      await response.arrayBuffer();
      assert.equal(response.status, 200, url);
      if (url.endsWith('.md')) assert.equal(response.headers.get('content-type'), 'text/markdown; charset=utf-8', url);
    }
  });

  it('llms-full.txt is every doc twin in sidebar order, then the API twins', async () => {
    const full = await readFile(path.join(dist, 'llms-full.txt'), 'utf8');
    const collected = await collect(config);
    const docs = Object.values(collected.sidebars).flatMap((items) => flattenSidebar(items));
    let at = -1;
    for (const route of [...docs.map((d) => d.route), ...config.apiReferences.map((r) => r.route)]) {
      const twin = (await readFile(path.join(dist, `${route.slice(1)}.md`), 'utf8')).trimEnd();
      const found = full.indexOf(twin);
      assert.ok(found > at, `${route}.md is missing from llms-full.txt or out of order`);
      at = found;
    }
  });
});
