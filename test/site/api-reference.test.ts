/**
 * The API reference pages as built: the server-rendered summary lists every operation
 * of its OpenAPI document, the downloads exist and parse, the Postman collection has a
 * request per operation, only these two pages use the Elements island, Node shims
 * stay in Elements' own chunk, and Elements' stylesheet is scoped to the island.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { selectAll, selectOne } from 'css-select';
import type { Element } from 'domhandler';
import { getAttributeValue, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { parse as parseYaml } from 'yaml';
import { builtSite, repoRoot } from '../helpers/site.ts';

const PAGES = [
  { id: 'payment', route: '/api-reference', spec: 'openapi/payment.yaml' },
  { id: 'onboarding', route: '/onboarding-api-reference', spec: 'openapi/onboarding.yaml' },
] as const;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});

interface SourceOperation {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  kind: 'operation' | 'webhook';
}

/** The operations and webhooks of an OpenAPI document, read here independently of the loader. */
function operationsOf(document: Json): SourceOperation[] {
  const out: SourceOperation[] = [];
  for (const [group, kind] of [['paths', 'operation'], ['webhooks', 'webhook']] as const) {
    for (const [name, item] of Object.entries(obj(document[group]))) {
      for (const method of METHODS) {
        const op = obj(obj(item)[method]);
        if (Object.keys(op).length === 0) continue;
        out.push({ operationId: String(op.operationId), method: method.toUpperCase(), path: name, summary: String(op.summary), kind });
      }
    }
  }
  return out;
}

let dist: string;
const read = (rel: string) => readFile(path.join(dist, rel), 'utf8');
const pageHtml = (route: string) => read(`${route.slice(1)}.html`);

/** Every HTML page of the build, by output path. */
async function allPages(): Promise<string[]> {
  const entries = await readdir(dist, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => path.relative(dist, path.join(e.parentPath, e.name)));
}

function islandsManifest(html: string): Record<string, { js: string; css: string[] }> {
  const raw = /<script id="docsgen-islands" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1];
  assert.ok(raw, 'the page has an islands manifest');
  return JSON.parse(raw) as Record<string, { js: string; css: string[] }>;
}

/** A JS asset and every chunk it imports statically, as output paths. */
async function staticClosure(url: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(url)) return seen;
  seen.add(url);
  const code = await read(url.slice(1));
  for (const match of code.matchAll(/(?:import|from)\s*["'](\.\/[^"']+\.js)["']/g)) {
    await staticClosure(new URL(match[1]!, `http://site${url}`).pathname, seen);
  }
  return seen;
}

describe('API reference pages (built site)', () => {
  before(async () => {
    dist = await builtSite();
  });

  for (const { id, route, spec } of PAGES) {
    it(`${route}: the server-rendered summary lists every operation of ${spec}`, async () => {
      const source = parseYaml(await readFile(path.join(repoRoot, spec), 'utf8')) as Json;
      const expected = operationsOf(source);
      assert.ok(expected.length >= 5, `${spec} has operations`);
      const doc = parseDocument(await pageHtml(route));
      const summary = selectOne('[data-api-summary]', doc.children);
      assert.ok(summary, `${route} has a server-rendered summary`);
      const articles = selectAll('article.api-op', [summary]);
      assert.equal(articles.length, expected.length, `${route}: one entry per operation and webhook`);
      for (const op of expected) {
        const anchor = `${op.kind === 'webhook' ? '/webhooks/' : '/operations/'}${op.operationId}`;
        const article = articles.find((a) => getAttributeValue(a as Element, 'id') === anchor);
        assert.ok(article, `${route}: #${anchor} is in the summary, so Elements' deep link works without JavaScript`);
        const title = textContent(selectOne('.api-op__title', [article]) ?? []);
        assert.ok(title.includes(op.kind === 'webhook' ? 'WEBHOOK' : op.method), `${anchor}: method in "${title}"`);
        assert.ok(title.includes(op.path), `${anchor}: path ${op.path} in "${title}"`);
        assert.ok(title.includes(op.summary), `${anchor}: summary "${op.summary}" in "${title}"`);
      }
      // Parameters are listed with their description, e.g. the Idempotency-Key of a creating operation.
      const creating = expected.find((op) => op.method === 'POST' && op.kind === 'operation' && op.operationId !== 'createToken');
      assert.ok(creating);
      const creatingArticle = articles.find((a) => getAttributeValue(a as Element, 'id') === `/operations/${creating.operationId}`)!;
      assert.match(textContent(selectAll('table', [creatingArticle])), /Idempotency-Key/);
    });

    it(`${route}: renders Markdown descriptions as HTML, never raw HTML from the document`, async () => {
      const html = await pageHtml(route);
      const doc = parseDocument(html);
      const summary = selectOne('[data-api-summary]', doc.children)!;
      // The prose of the operations; examples are data and may hold asterisks (masked names).
      const text = textContent(selectAll('.api-op__doc', [summary]));
      assert.doesNotMatch(text, /\*\*[^*\n]+\*\*/, 'no literal **bold** left');
      assert.doesNotMatch(text, /\]\(https?:/, 'no literal [link](url) left');
      assert.ok(selectAll('.api-op__text code', [summary]).length > 0, 'inline code is rendered as <code>');
      // The documents show placeholders in angle brackets (`t=<segundos Unix>`): rendered as tags, their text would vanish.
      assert.match(text, /<segundos Unix>/, 'angle-bracket placeholders stay text');
    });

    it(`${route}: every operation shows its request samples in every language, highlighted, in tabs shared with the docs, with a copy button and "Try it"`, async () => {
      const source = parseYaml(await readFile(path.join(repoRoot, spec), 'utf8')) as Json;
      const doc = parseDocument(await pageHtml(route));
      const summary = selectOne('[data-api-summary]', doc.children)!;
      for (const op of operationsOf(source)) {
        const anchor = `${op.kind === 'webhook' ? '/webhooks/' : '/operations/'}${op.operationId}`;
        const article = selectAll('article.api-op', [summary]).find((a) => getAttributeValue(a as Element, 'id') === anchor)!;
        const samples = selectOne('[data-api-samples]', [article]);
        if (op.kind === 'webhook') {
          assert.equal(samples, null, `${anchor}: a webhook is received, so it has no request samples`);
          assert.ok(selectAll('.api-op__code .code-block', [article]).length > 0, `${anchor}: its payload examples are shown`);
          continue;
        }
        assert.ok(samples, `${anchor}: request samples`);
        const tabs = selectOne('[data-tabs]', [samples]) as Element;
        assert.equal(getAttributeValue(tabs, 'data-tab-group'), 'linguagem', `${anchor}: the samples switch with the docs' language tabs`);
        const values = selectAll('[role="tab"]', [tabs]).map((t) => getAttributeValue(t as Element, 'data-tab-value'));
        assert.deepEqual(values, ['curl', 'node', 'python', 'java', 'kotlin', 'php', 'go', 'csharp', 'ruby'], `${anchor}: one tab per language`);
        for (const panel of selectAll('[role="tabpanel"]', [tabs])) {
          assert.ok(selectOne('.code-block [data-copy]', [panel]), `${anchor}: each sample has a copy button`);
          assert.ok(selectAll('pre code span[class^="sh-"]', [panel]).length > 0, `${anchor}: each sample is highlighted at build time`);
        }
        assert.match(textContent(samples), new RegExp(`--request ${op.method}`), `${anchor}: the curl sample uses the operation's method`);
        const tryIt = selectOne('a[data-api-try]', [article]) as Element | null;
        assert.equal(tryIt && getAttributeValue(tryIt, 'href'), `#try${anchor}`, `${anchor}: "Try it" opens the console at this operation`);
        assert.ok(selectOne(`[id="try${anchor}"][hidden]`, [article]), `${anchor}: the console address has a target, which displays nothing`);
        // Every status the document lists is shown, and the first success response has its fields and an example.
        const statuses = Object.keys(obj(obj(obj(obj(source.paths)[op.path])[op.method.toLowerCase()]).responses));
        const shown = selectAll('.api-op__status', [article]).map((s) => textContent(s));
        assert.deepEqual(shown, statuses, `${anchor}: every response status`);
      }
    });

    it(`${route}: the island gets the JSON document and the sandbox server, and the credentials notice is there`, async () => {
      const doc = parseDocument(await pageHtml(route));
      const island = selectOne('[data-island="api-reference"]', doc.children) as Element | null;
      assert.ok(island, 'island container');
      assert.equal(getAttributeValue(island, 'data-island-start'), 'request', 'the console starts only when the reader asks for it');
      assert.equal(getAttributeValue(island, 'data-island-route'), '#try', 'a #try/… address asks for it');
      const props = JSON.parse(getAttributeValue(island, 'data-island-props') ?? '{}') as { specUrl: string; tryItServer: string };
      // The download (/openapi/<id>.json) is the document as written; the reference's copy has the site's own links root-relative.
      assert.equal(props.specUrl, `/openapi/${id}.reference.json`);
      const source = parseYaml(await readFile(path.join(repoRoot, spec), 'utf8')) as Json;
      const sandbox = (source.servers as { url: string; description: string }[]).find((s) => /sandbox/i.test(s.description));
      assert.equal(props.tryItServer, sandbox?.url);
      const notice = textContent(selectOne('.api-page__notice', doc.children) ?? []);
      assert.match(notice, /localStorage in plain text/);
      const clear = selectOne('[data-clear-credentials]', doc.children) as Element | null;
      assert.ok(clear && clear.name === 'button', 'a "Clear saved credentials" button');
      assert.equal(getAttributeValue(clear, 'hidden'), '', 'hidden until the island, which can act on it, starts');
      assert.ok(islandsManifest(await pageHtml(route))['api-reference'], 'the page lists the island in its manifest');
    });

    it(`${route}: the downloads exist, parse, and match ${spec}`, async () => {
      const source = parseYaml(await readFile(path.join(repoRoot, spec), 'utf8')) as Json;
      const yamlText = await read(`openapi/${id}.yaml`);
      const json = JSON.parse(await read(`openapi/${id}.json`)) as Json;
      assert.deepEqual(parseYaml(yamlText), source, 'the YAML download is the document');
      assert.deepEqual(json, source, 'the JSON download is the same document');
      const doc = parseDocument(await pageHtml(route));
      const hrefs = selectAll('.api-page__downloads a', doc.children).map((a) => getAttributeValue(a as Element, 'href'));
      for (const file of [`${id}.yaml`, `${id}.json`, `${id}.postman_collection.json`, `${id}.postman_environment.json`]) {
        assert.ok(hrefs.includes(`/openapi/${file}`), `${route} links /openapi/${file}`);
        assert.ok(existsSync(path.join(dist, 'openapi', file)), `dist/openapi/${file} exists`);
      }
    });

    it(`${route}: the Postman collection has one request per operation, and the environment points at the sandbox`, async () => {
      const source = parseYaml(await readFile(path.join(repoRoot, spec), 'utf8')) as Json;
      const operations = operationsOf(source).filter((op) => op.kind === 'operation');
      const collection = JSON.parse(await read(`openapi/${id}.postman_collection.json`)) as Json;
      const requests: Json[] = [];
      const walk = (items: unknown) => {
        for (const item of Array.isArray(items) ? items : []) {
          if (obj(item).request) requests.push(obj(item));
          walk(obj(item).item);
        }
      };
      walk(collection.item);
      const key = (method: string, url: string) => `${method} ${url.replace(/^\{\{\w+\}\}/, '').replace(/\?.*$/, '')}`;
      const found = requests.map((r) => key(String(obj(r.request).method), String(obj(obj(r.request).url).raw)));
      const wanted = operations.map((op) => key(op.method, op.path.replace(/\{(\w+)\}/g, ':$1')));
      for (const op of wanted) assert.equal(found.filter((f) => f === op).length, 1, `exactly one request for ${op}`);
      // The one addition allowed: the token request, when the token endpoint is in another document,
      // so every collection starts the same way.
      const extra = found.filter((f) => !wanted.includes(f));
      assert.deepEqual(extra, wanted.includes('POST /oauth/token') ? [] : ['POST /oauth/token'], 'no request without an operation');
      const environment = JSON.parse(await read(`openapi/${id}.postman_environment.json`)) as Json;
      const values = (environment.values as { key: string; value: string }[]).map((v) => v.value);
      const sandbox = (source.servers as { url: string; description: string }[]).find((s) => /sandbox/i.test(s.description))!;
      assert.ok(values.includes(sandbox.url), `the environment holds the sandbox URL ${sandbox.url}`);
    });
  }

  it('only the two API reference pages use the Elements island or link its files', async () => {
    const pages = await allPages();
    assert.ok(pages.length > 40, 'the whole site is built');
    const apiFiles = new Set(PAGES.flatMap(({ route }) => [`${route.slice(1)}.html`, `${route.slice(1)}/index.html`]));
    const island = islandsManifest(await pageHtml('/api-reference'))['api-reference'];
    assert.ok(island, 'the API page lists the island');
    assert.ok(island.css.length > 0, 'the island has a stylesheet');
    for (const file of pages) {
      const html = await read(file);
      if (apiFiles.has(file)) {
        assert.ok(islandsManifest(html)['api-reference'], `${file} lists the island`);
        continue;
      }
      assert.equal(islandsManifest(html)['api-reference'], undefined, `${file} must not list the API reference island`);
      assert.ok(!html.includes(island.js), `${file} must not reference ${island.js}`);
      for (const css of island.css) assert.ok(!html.includes(css), `${file} must not reference ${css}`);
    }
  });

  it('keeps the buffer, url and process shims in chunks only the API reference loads', async () => {
    const api = islandsManifest(await pageHtml('/api-reference'));
    const apiClosure = await staticClosure(api['api-reference']!.js);
    const markers: Record<string, string> = {
      buffer: 'Attempt to access memory outside buffer bounds',
      url: "Parameter 'url' must be a string, not ",
      process: 'process.binding is not supported',
    };
    const apiCode = (await Promise.all([...apiClosure].map((u) => read(u.slice(1))))).join('\n');
    for (const [name, marker] of Object.entries(markers)) assert.ok(apiCode.includes(marker), `the ${name} shim is in Elements' chunks`);

    // Everything another page can load: the router and the other islands, with their imports.
    const home = await read('index.html');
    const router = /<script type="module" src="([^"]+)"/.exec(home)?.[1];
    assert.ok(router);
    const others = new Set<string>();
    await staticClosure(router, others);
    for (const file of await allPages()) {
      for (const [name, entry] of Object.entries(islandsManifest(await read(file)))) if (name !== 'api-reference') await staticClosure(entry.js, others);
    }
    for (const url of others) {
      const code = await read(url.slice(1));
      for (const [name, marker] of Object.entries(markers)) assert.ok(!code.includes(marker), `${url} (loaded outside the API pages) carries the ${name} shim`);
    }
  });

  it("scopes every rule of Elements' stylesheet to the island", async () => {
    const css = (await Promise.all(islandsManifest(await pageHtml('/api-reference'))['api-reference']!.css.map((u) => read(u.slice(1))))).join('\n');
    assert.ok(css.length > 200_000, "Elements' stylesheet is bundled with the island");
    // The reset rules Elements ships for a whole page must not be there unscoped.
    for (const global of ['h1,h2,h3,h4,h5,h6{', 'a{color:inherit', ':focus{outline:none}', 'ol,ul{list-style:none}', 'body{']) {
      assert.ok(!css.includes(`}${global}`) && !css.startsWith(global), `unscoped "${global}" in the island stylesheet`);
    }
    assert.ok(css.includes(':where([data-island=api-reference]) :focus{outline:none}'), 'the focus reset applies inside the island only');
  });
});
