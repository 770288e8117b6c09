/**
 * Search: the index stage (records, Portuguese analysis, shards and passages as
 * files) and the query engine the browser runs, here fed from memory. The last group
 * queries the index of the real built site, read from disk as the browser would fetch it.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { OutputAsset } from '../../../cli/stages/bundle.ts';
import type { LoadedApiDocument, OperationSummary } from '../../../cli/stages/openapi.ts';
import { resolveConfig } from '../../../cli/config.ts';
import {
  apiRecords,
  buildIndexData,
  buildSearchIndex,
  createSearchIndexCache,
  htmlRecords,
  indexFiles,
  indexFileStream,
  passageBounds,
  passageFiles,
  type SearchPage,
  timeSlicer,
} from '../../../cli/stages/search-index.ts';
import { fold, shardBucket, wordTokens, words } from '../../../templates/shared/search-analyze.ts';
import { loadAnalyzer } from '../../../templates/shared/search-language.ts';
import { excerpt, highlight, openSearchEngine, parseQuery, SearchEngine, withinOneEdit, type SearchResult } from '../../../templates/client/search/engine.ts';
import {
  decodePostings,
  encodePostings,
  LATER_FILE_CHARS,
  laterFileName,
  locatePassage,
  PAGE_FILE_CHARS,
  pageFileName,
  SEARCH_META_PATH,
  type LaterPassageFile,
  type PagePassageFile,
  type SearchMeta,
  type SearchPassage,
} from '../../../templates/shared/search-format.ts';
import { builtSite } from '../../helpers/site.ts';

function operation(partial: Partial<OperationSummary> & Pick<OperationSummary, 'operationId' | 'method' | 'path' | 'summary'>): OperationSummary {
  return { description: '', tags: [], parameters: [], responses: [], kind: 'operation', ...partial };
}

function apiDocument(operations: OperationSummary[]): LoadedApiDocument {
  return {
    id: 'payment',
    file: 'openapi/payment.yaml',
    title: 'Sorrix Payment API',
    version: '1.0.0',
    description: 'A Payment API cobra identificações.\n\nMais texto.',
    servers: [],
    tags: [],
    operations,
    document: {},
    yamlText: '',
    jsonText: '',
    postman: { collection: '', environment: '' },
  };
}

const docHtml = `<!DOCTYPE html><html lang="en"><body>
<nav class="navbar"><a href="/">Pagamento no menu</a></nav>
<main id="main-content"><div class="markdown" lang="pt-BR"><header><h1>Roteiro de homologação</h1></header>
<p>Antes de emitir credenciais de produção, a Sorrix confere a integração.</p>
<h2 id="pagamento" class="anchor">Pagamento<a href="#pagamento" class="hash-link" aria-label="Direct link to Pagamento">#</a></h2>
<p>Cada <strong>pagamento</strong> aprovado conta.</p>
<div class="code-block"><pre><code><span class="line">POST /v1/payments</span><span class="line">Idempotency-Key: x</span></code></pre><button type="button" class="code-block__copy">Copy</button></div>
<h3 id="cancelamento-parcial" class="anchor">Cancelamento parcial<a href="#cancelamento-parcial" class="hash-link">#</a></h3>
<p>Estornos parciais são aceitos.<br/>Até 90 dias.</p>
<svg><text>ignored</text></svg>
</div></main>
<footer>Rodapé com pagamento</footer></body></html>`;

const pages: SearchPage[] = [
  { url: '/docs/anexo/roteiro-homologacao', title: 'Roteiro de homologação', kind: 'doc', records: htmlRecords(docHtml, 'Roteiro de homologação') },
  {
    url: '/blog/2019/05/28/hola',
    title: 'Hola',
    kind: 'blog',
    records: htmlRecords('<main><div class="markdown"><p>Transações em espanhol e terminais novos.</p></div></main>', 'Hola'),
  },
  {
    url: '/api-reference',
    title: 'API Reference',
    kind: 'api',
    records: apiRecords(
      apiDocument([
        operation({ operationId: 'createPayment', method: 'POST', path: '/v1/payments', summary: 'Criar pagamento', description: 'Cobra uma `identificação`.' }),
        operation({
          operationId: 'createCancellation',
          method: 'POST',
          path: '/v1/transactions/{transaction_id}/cancellations',
          summary: 'Cancelar transação',
          description: 'Sem amount, o cancelamento é total. Com amount, é parcial.',
          parameters: [{ name: 'transaction_id', in: 'path', required: true, description: 'Identificador da transação.', type: 'string' }],
        }),
        operation({ operationId: 'onTransactionApproved', method: 'POST', path: 'transaction.approved', summary: 'Transação aprovada', kind: 'webhook' }),
      ]),
      'API Reference',
    ),
  },
];

const portuguese = await loadAnalyzer('pt');
const stem = (token: string) => portuguese.stem(token);

/** The index as the browser gets it: files, fetched by URL. */
function engineOf(files: OutputAsset[]): SearchEngine {
  const byUrl = new Map(files.map((f) => [`/${f.path}`, new TextDecoder().decode(f.contents)]));
  const load = async (url: string) => {
    const body = byUrl.get(url);
    if (body === undefined) throw new Error(`no file at ${url}`);
    return JSON.parse(body) as unknown;
  };
  return new SearchEngine(JSON.parse(byUrl.get(`/${SEARCH_META_PATH}`)!) as SearchMeta, load, portuguese);
}

const files = indexFiles(await buildIndexData(pages, portuguese));
const engine = engineOf(files);

/** URLs of the hits of a query, best first, as the dialog links them. */
async function urls(query: string, e = engine): Promise<string[]> {
  const result = await e.search(query);
  const out: string[] = [];
  for (const page of result.pages) for (const hit of page.records) out.push(e.url(hit.record, await e.passage(hit.record, hit.passage)));
  return out;
}

function marked(segments: { text: string; mark: boolean }[]): string {
  return segments.map((s) => (s.mark ? `[${s.text}]` : s.text)).join('');
}

describe('search analysis', () => {
  it('folds case and accents, and splits identifiers', () => {
    assert.equal(fold('Homologação ÇÃO'), 'homologacao cao');
    assert.deepEqual(
      words('ctk_test_aprovado, POST /v1/payments').map((w) => w.text),
      ['ctk', 'test', 'aprovado', 'POST', 'v1', 'payments'],
    );
    assert.deepEqual(wordTokens('createPayment'), ['createpayment', 'create', 'payment']);
    assert.deepEqual(wordTokens('HTTPStatus'), ['httpstatus', 'http', 'status']);
  });

  it('stems Portuguese so inflections meet, with or without accents', () => {
    assert.equal(stem('pagamentos'), stem('pagamento'));
    assert.equal(stem(fold('transações')), stem('transacao'));
    assert.equal(stem(fold('homologações')), stem(fold('homologação')));
    assert.equal(stem('parciais'), stem('parcial'));
    assert.equal(stem('credenciais'), stem('credencial'));
    assert.equal(stem('consumidores'), stem('consumidor'));
    assert.equal(stem('webhooks'), stem('webhook'));
    assert.equal(stem('cancelamento'), stem('cancelar'));
    assert.equal(stem('v1'), 'v1');
    assert.notEqual(stem('pagamento'), stem('parcial'));
  });

  it('reads the query: stopwords out, the last word typed as a prefix', () => {
    const read = (query: string) => parseQuery(query, portuguese).map(({ text, prefix }) => ({ text, prefix }));
    assert.deepEqual(read('cancelamento de pagam'), [
      { text: 'cancelamento', prefix: false },
      { text: 'pagam', prefix: true },
    ]);
    assert.deepEqual(read('POST /v1/payments '), [
      { text: 'post', prefix: false },
      { text: 'v1', prefix: false },
      { text: 'payments', prefix: false },
    ]);
    // Only stopwords: they are all there is to search for.
    assert.deepEqual(read('de para'), [
      { text: 'de', prefix: false },
      { text: 'para', prefix: true },
    ]);
  });

  it('reads English with the English stemmer and stop words, and an unknown language folded only', async () => {
    const english = await loadAnalyzer('en');
    assert.equal(english.stem('payments'), english.stem('payment'));
    assert.equal(english.stem('refunded'), english.stem('refund'));
    assert.ok(english.isStopword('the') && english.isStopword('with'));
    assert.ok(!english.isStopword('para'), 'Portuguese stop words are not English ones');
    assert.deepEqual(parseQuery('the invoices', english).map((t) => t.text), ['invoices']);
    const plain = await loadAnalyzer(undefined);
    assert.equal(plain.stem('payments'), 'payments');
    assert.ok(!plain.isStopword('the'));
  });

  it('tells one edit from two', () => {
    assert.ok(withinOneEdit('pagamento', 'pagamnto'));
    assert.ok(withinOneEdit('pagamento', 'pagamemto'));
    assert.ok(withinOneEdit('pagamento', 'pagametno'));
    assert.ok(withinOneEdit('pagamento', 'pagamentos'));
    assert.ok(!withinOneEdit('pagamento', 'pagametnos'));
    assert.ok(!withinOneEdit('pix', 'pixel'));
  });
});

describe('search index stage', () => {
  it('splits doc pages at h2/h3 headings with ids, reading only the content', () => {
    const records = htmlRecords(docHtml, 'Roteiro de homologação');
    assert.deepEqual(
      records.map((r) => [r.heading, r.anchor]),
      [
        ['', ''],
        ['Pagamento', 'pagamento'],
        ['Cancelamento parcial', 'cancelamento-parcial'],
      ],
    );
    assert.equal(records[0]!.text, 'Antes de emitir credenciais de produção, a Sorrix confere a integração.');
    assert.equal(records[1]!.text, 'Cada pagamento aprovado conta. POST /v1/payments Idempotency-Key: x');
    assert.equal(records[2]!.text, 'Estornos parciais são aceitos. Até 90 dias.');
    // The h1 is the title, not text; the hash link, copy button, svg, navbar and footer are not content.
    assert.ok(records.every((r) => !/#|Copy|ignored|menu|Rodapé|Roteiro/.test(r.text + r.heading)));
    // An h3 section is also found by its h2.
    assert.deepEqual(records[2]!.fields.find((f) => f.field === 'parentHeading'), { text: 'Pagamento', field: 'parentHeading' });
  });

  it('makes one record per API operation, with its deep link', () => {
    const records = pages[2]!.records;
    assert.deepEqual(
      records.map((r) => [r.heading, r.anchor]),
      [
        ['', ''],
        ['POST /v1/payments · Criar pagamento', '/operations/createPayment'],
        ['POST /v1/transactions/{transaction_id}/cancellations · Cancelar transação', '/operations/createCancellation'],
        ['WEBHOOK transaction.approved · Transação aprovada', '/webhooks/onTransactionApproved'],
      ],
    );
    assert.equal(records[1]!.text, 'Cobra uma identificação.');
    assert.match(records[2]!.text, /transaction_id Identificador da transação\./);
    assert.deepEqual(records[1]!.fields.find((f) => f.field === 'apiCode'), { text: 'POST /v1/payments createPayment', field: 'apiCode' });
  });

  it('cuts text into passages after sentences, each at most the passage size', () => {
    const text = 'Primeira frase curta. '.repeat(40).trim();
    const bounds = passageBounds(text, 100);
    assert.ok(bounds.length > 5);
    assert.equal(bounds[0]![0], 0);
    assert.equal(bounds[bounds.length - 1]![1], text.length);
    for (const [start, end] of bounds) {
      assert.ok(end - start <= 100);
      assert.match(text.slice(start, end), /\.$/);
    }
    assert.deepEqual(passageBounds(''), [[0, 0]]);
  });

  it('encodes postings compactly and reads them back', () => {
    const postings = [
      { record: 3, weight: 12, passage: 0 },
      { record: 40, weight: 1, passage: 35 },
      { record: 1500, weight: 35, passage: 2 },
    ];
    assert.equal(encodePostings(postings), '3c0,111z,14kz2');
    assert.deepEqual(decodePostings(encodePostings(postings)), postings);
  });

  it('writes a fixed meta file, every shard bucket, and the passages of each page, in a folder named by content', async () => {
    const paths = files.map((f) => f.path);
    assert.equal(paths[0], 'search/index.json');
    const meta = JSON.parse(new TextDecoder().decode(files[0]!.contents)) as SearchMeta;
    assert.match(meta.base, /^\/assets\/search\/[0-9a-f]{10}\/$/);
    assert.deepEqual(meta.counts, [3, 1, 4]);
    assert.deepEqual(meta.pages[2], ['/api-reference', 'API Reference', 'api']);
    for (let bucket = 0; bucket < meta.buckets; bucket++) assert.ok(paths.includes(`${meta.base.slice(1)}t/${bucket}.json`), `bucket ${bucket}`);
    for (const page of [0, 1, 2]) assert.ok(paths.includes(`${meta.base.slice(1)}f/${page}.json`), `passages of page ${page}`);
    assert.ok(paths.every((p) => p === SEARCH_META_PATH || p.startsWith(meta.base.slice(1))));

    const edited = { ...pages[1]!, records: htmlRecords('<main><p>Outro texto.</p></main>', 'Hola') };
    const changed = indexFiles(await buildIndexData([pages[0]!, edited, pages[2]!], portuguese));
    const changedMeta = JSON.parse(new TextDecoder().decode(changed[0]!.contents)) as SearchMeta;
    assert.notEqual(changedMeta.base, meta.base);
    assert.equal(indexFiles(await buildIndexData(pages, portuguese))[0]!.contents.toString(), files[0]!.contents.toString(), 'the same pages give the same files');
  });

  it('makes its files afresh on every pass over them, the same each time', async () => {
    // The build's writer takes the files once; a one-shot list would leave a second reader nothing.
    const stream = indexFileStream(await buildIndexData(pages, portuguese));
    const text = (list: Iterable<OutputAsset>) => [...list].map((f) => `${f.path}\n${Buffer.from(f.contents).toString()}`);
    const first = text(stream);
    assert.ok(first.length > 3);
    assert.deepEqual(text(stream), first);
  });

  it('writes one passage file a page, and a long page\'s further passages in files of their own, each passage found where the browser looks', () => {
    const text = (chars: number, label: string) => `${label} `.padEnd(chars, 'x');
    const short = Array.from({ length: 3 }, (_, r) => [{ h: `S${r}`, a: `s${r}`, t: text(300, `short ${r}`) }]);
    // A page of long sections: more text than a page's file holds, and one record longer than a further file.
    const long = Array.from({ length: 12 }, (_, r) =>
      Array.from({ length: r === 5 ? 36 : 6 }, (_, i) => ({ h: `L${r}`, a: `l${r}`, t: text(320, `long ${r}.${i}`) })),
    );
    const byRecord: SearchPassage[][] = [...short, ...long, [{ h: '', a: '', t: 'only' }]];
    const counts = [short.length, long.length, 1];
    const files = passageFiles(byRecord, counts);

    assert.deepEqual([...files.keys()].filter((name) => !name.includes('-')), ['0', '1', '2'], 'a file for each page');
    assert.ok(!files.has('0-0') && !files.has('2-0'), 'a short page has one file');
    const further = [...files.keys()].filter((name) => name.startsWith('1-'));
    assert.ok(further.length >= 2, `the long page's further passages fill files of their own (${further.join(', ')})`);
    const chars = (texts: readonly string[]) => texts.reduce((sum, t) => sum + t.length, 0);
    assert.ok(chars((files.get('1') as PagePassageFile).flatMap((entry) => entry[2])) <= PAGE_FILE_CHARS, "the long page's file holds at most its share of text");
    for (const name of further) {
      const body = files.get(name) as LaterPassageFile;
      assert.ok(body.length === 1 || chars(body.flat()) <= LATER_FILE_CHARS, `${name} holds one record, or at most its share of text`);
    }

    let record = 0;
    counts.forEach((count, page) => {
      for (let index = 0; index < count; index++, record++) {
        byRecord[record]!.forEach((passage, at) => {
          const found = locatePassage(files.get(pageFileName(page)) as PagePassageFile, index, at);
          assert.ok(found, `record ${record}, passage ${at}`);
          const t = found.later ? (files.get(laterFileName(page, found.later.file)) as LaterPassageFile)[found.later.record]![found.later.passage] : found.t;
          assert.deepEqual({ h: found.h, a: found.a, t }, passage, `record ${record}, passage ${at}`);
        });
        assert.equal(locatePassage(files.get(pageFileName(page)) as PagePassageFile, index, byRecord[record]!.length)?.t, undefined, 'no passage past the last');
      }
    });
  });

  it('hashes a word prefix to the same shard on both sides', () => {
    // Pinned: the browser computes the same bucket to fetch, and a change would orphan every deployed index.
    assert.equal(shardBucket('pag', 512), 279);
    assert.ok(shardBucket('pag', 512) < 512);
    const spread = new Set(['pag', 'hom', 'can', 'par', 'pos', 'v1', 'tra', 'ide'].map((k) => shardBucket(k, 64)));
    assert.ok(spread.size >= 6, 'prefixes spread over the buckets');
  });
});

describe('search language from the config', () => {
  const configWith = (contentLanguage: string) =>
    resolveConfig(
      { title: 'T', url: 'https://t.example', contentLanguage, copyright: { year: 2026, holder: 'T' }, navbar: { title: 'T', items: [] }, footer: { links: [] }, docs: { mainDoc: 'a' }, sidebars: {} },
      { root: '/site', configFile: '/site/site.config.ts', source: '' },
    );
  const metaOf = (files: Iterable<OutputAsset>) => JSON.parse(Buffer.from([...files].find((f) => f.path === SEARCH_META_PATH)!.contents).toString()) as SearchMeta;

  it('stems in the content language and names it in the meta', async () => {
    const warnings: string[] = [];
    const result = await buildSearchIndex({ pages: [], apis: [] }, configWith('en-GB'), { warn: (m) => warnings.push(m) });
    assert.equal(metaOf(result.files).language, 'en');
    assert.deepEqual(warnings, []);
  });

  it('folds an unknown language without stemming, and says so once per build session', async () => {
    const warnings: string[] = [];
    const cache = createSearchIndexCache();
    const config = configWith('tlh');
    const first = await buildSearchIndex({ pages: [], apis: [] }, config, { cache, warn: (m) => warnings.push(m) });
    await buildSearchIndex({ pages: [], apis: [] }, config, { cache, warn: (m) => warnings.push(m) });
    assert.equal(metaOf(first.files).language, undefined);
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /'tlh'/);
    assert.match(warnings[0]!, /contentLanguage in site\.config\.ts/);
    assert.match(warnings[0]!, /en, pt/);
  });
});

describe('search engine, stemming a query', () => {
  it('stems a word only when the index does not hold it as typed, and then finds its other forms', async () => {
    const english = await loadAnalyzer('en');
    const page: SearchPage = {
      url: '/docs/billing',
      title: 'Billing',
      kind: 'doc',
      records: htmlRecords('<main><div class="markdown"><p>Each invoice lists the payment and the watering of the month.</p></div></main>', 'Billing'),
    };
    const built = indexFiles(await buildIndexData([page], english));
    const byUrl = new Map(built.map((f) => [`/${f.path}`, JSON.parse(Buffer.from(f.contents).toString()) as unknown]));
    const stemmed: string[] = [];
    const engine = new SearchEngine(byUrl.get(`/${SEARCH_META_PATH}`) as SearchMeta, async (url) => byUrl.get(url), {
      isStopword: english.isStopword,
      stem: async (token) => (stemmed.push(token), english.stem(token)),
    });
    assert.equal((await engine.search('invoice ')).pages[0]?.url, '/docs/billing');
    assert.deepEqual(stemmed, [], 'a word of the index needs no stemmer');
    assert.equal((await engine.search('payments ')).pages[0]?.url, '/docs/billing');
    assert.equal((await engine.search('watered ')).pages[0]?.url, '/docs/billing', 'two edits from "watering": found by its stem, not as a typo');
    assert.deepEqual(stemmed, ['payments', 'watered']);
  });
});

describe('search index stage, in watch mode', () => {
  it('gives the event loop a turn between slices, waits for what it is told to yield to, and stops when aborted', async () => {
    const stop = new AbortController();
    let yielded = 0;
    const pause = timeSlicer(0, async () => void yielded++, stop.signal);
    assert.equal(pause.due(), true);
    let otherWorkRan = false;
    setImmediate(() => (otherWorkRan = true));
    await pause();
    assert.equal(otherWorkRan, true, 'a pause lets waiting callbacks (a server request) run');
    assert.equal(yielded, 1);
    stop.abort();
    await assert.rejects(pause(), { name: 'AbortError' });
    const slow = timeSlicer(60_000);
    assert.equal(slow.due(), false, 'no pause before a slice is used up');
  });

  it('makes the same files whether records were counted before or not', async () => {
    const fresh = pages.map((p) => ({ ...p, records: p.records.map((r) => ({ ...r })) }));
    const first = indexFiles(await buildIndexData(fresh, portuguese));
    const again = indexFiles(await buildIndexData(fresh, portuguese));
    assert.deepEqual(
      again.map((f) => [f.path, Buffer.from(f.contents).toString()]),
      first.map((f) => [f.path, Buffer.from(f.contents).toString()]),
    );
    assert.equal(Buffer.from(first[0]!.contents).toString(), Buffer.from(files[0]!.contents).toString(), 'equal to the index of equal records');
  });
});

describe('search engine', () => {
  it('finds "homologação" by "homologacao": accents do not matter', async () => {
    const found = await urls('homologacao');
    assert.equal(found[0], '/docs/anexo/roteiro-homologacao');
  });

  it('finds "pagamento" by "pagamentos" and links the section by its anchor', async () => {
    const found = await urls('pagamentos');
    assert.ok(found.includes('/docs/anexo/roteiro-homologacao#pagamento'), found.join(' '));
    assert.ok(found.includes('/api-reference#/operations/createPayment'), found.join(' '));
  });

  it('finds API operations by method and path, operationId and summary, linking the deep link first', async () => {
    assert.equal((await urls('POST /v1/payments'))[0], '/api-reference#/operations/createPayment');
    assert.equal((await urls('createPayment'))[0], '/api-reference#/operations/createPayment');
    assert.equal((await urls('criar pagamento'))[0], '/api-reference#/operations/createPayment');
    assert.equal((await urls('transaction.approved'))[0], '/api-reference#/webhooks/onTransactionApproved');
    const partial = await urls('cancelamento parcial');
    assert.ok(partial.includes('/api-reference#/operations/createCancellation'), partial.join(' '));
    assert.ok(partial.includes('/docs/anexo/roteiro-homologacao#cancelamento-parcial'), partial.join(' '));
  });

  it('groups hits by page, with the kind of each page', async () => {
    const result = await engine.search('pagamento');
    const kinds = result.pages.map((p) => p.kind);
    assert.deepEqual([...new Set(kinds)].sort(), ['api', 'doc']);
    assert.equal(new Set(result.pages.map((p) => p.url)).size, result.pages.length, 'one group per page');
  });

  it('matches the word being typed as a prefix, and tolerates one typo', async () => {
    assert.equal((await urls('homolog'))[0], '/docs/anexo/roteiro-homologacao');
    assert.ok((await urls('pagamnto')).includes('/docs/anexo/roteiro-homologacao#pagamento'));
    assert.ok((await urls('trnasações')).includes('/blog/2019/05/28/hola'), 'a typo in the first three letters');
    assert.deepEqual(await urls('pix'), []);
  });

  it('says when no page has every word', async () => {
    const result: SearchResult = await engine.search('estornos espanhol');
    assert.equal(result.complete, false);
    assert.ok(result.pages.length >= 2);
    assert.deepEqual((await engine.search('xyzzy')).pages, []);
    assert.deepEqual((await engine.search('   ')).pages, []);
  });

  it('marks the matched words of an excerpt, around the first one', async () => {
    const result = await engine.search('homologacao pagamentos');
    assert.equal(marked(highlight('Roteiro de homologação', result.matched)), 'Roteiro de [homologação]');
    const long = `${'Texto sem relação nenhuma. '.repeat(20)}Cada pagamento aprovado conta, e os pagamentos recusados também.`;
    const text = marked(excerpt(long, result.matched, 120));
    assert.match(text, /^… /);
    assert.match(text, /Cada \[pagamento\] aprovado conta, e os \[pagamentos\] recusados também\.$/);
    assert.ok(text.length <= 130, text);
  });
});

describe('search index of the real site', () => {
  async function realEngine(): Promise<SearchEngine> {
    const dir = await builtSite();
    const load = async (url: string) => JSON.parse(await readFile(path.join(dir, url), 'utf8')) as unknown;
    return openSearchEngine(load);
  }

  it('answers the queries readers ask with the right page and section', async () => {
    const e = await realEngine();
    const top = async (query: string) => {
      const result = await e.search(query);
      const page = result.pages[0]!;
      const passage: SearchPassage = await e.passage(page.records[0]!.record, page.records[0]!.passage);
      return { url: page.url, first: e.url(page.records[0]!.record, passage), result };
    };
    assert.equal((await top('homologacao')).url, '/docs/anexo/roteiro-homologacao');
    assert.equal((await top('pagamentos')).url, '/docs/api/pagamento');
    assert.equal((await top('POST /v1/payments')).first, '/api-reference#/operations/createPayment');
    const partial = await top('cancelamento parcial');
    assert.equal(partial.url, '/docs/api/cancelamento');
    const all = partial.result.pages.flatMap((p) => p.records.map((r) => ({ page: p.url, record: r })));
    const links = await Promise.all(all.map(async ({ record }) => e.url(record.record, await e.passage(record.record, record.passage))));
    assert.ok(links.includes('/docs/api/cancelamento#cancelamento-parcial'), links.join(' '));
    assert.ok(links.some((l) => l.startsWith('/api-reference#/')), 'an API operation is among the results');
  });

  it('gives at once the passages whose files have arrived, and nothing before they have', async () => {
    const fetched: string[] = [];
    const dir = await builtSite();
    const e = await openSearchEngine(async (url: string) => (fetched.push(url), JSON.parse(await readFile(path.join(dir, url), 'utf8')) as unknown));
    const result = await e.search('pagamento');
    const [page, other] = [result.pages.find((p) => p.records.length >= 2), result.pages.find((p) => p.records.length >= 1 && p !== result.pages.find((q) => q.records.length >= 2))];
    assert.ok(page && other, 'a page with two results, and another page');
    const [first, second] = page.records as [(typeof page.records)[0], (typeof page.records)[0]];
    assert.equal(e.loadedPassage(second.record, second.passage), undefined, 'nothing is there before a file is fetched');
    await e.passage(first.record, first.passage);
    const before = fetched.length;
    assert.deepEqual(e.loadedPassage(second.record, second.passage), await e.passage(second.record, second.passage), 'another result of the same page, from the file that came');
    assert.equal(fetched.length, before, 'its text needed no request');
    assert.equal(e.loadedPassage(other.records[0]!.record, other.records[0]!.passage), undefined, "another page's file has not come");
  });
});
