/**
 * Every HTML file of the built site is valid HTML: html-validate with its standards
 * presets ("standard": the HTML specification's content models, attributes and
 * nesting; "document": a whole document, doctype and references that resolve), 0 errors.
 *
 * The configuration lives here rather than in a JSON file so each departure from the
 * presets can say why.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ConfigData, Message } from 'html-validate';
import { builtSite } from '../helpers/site.ts';

export const HTML_VALIDATE_CONFIG: ConfigData = {
  extends: ['html-validate:standard', 'html-validate:document'],
  rules: {
    // HTML allows a raw ">" in text (only "<" and "&" can start markup), and Shiki writes
    // "->" and "=>" in highlighted code as they are; html-validate's relaxed mode still
    // reports ">", and React escapes "<" and "&" in every text it renders anyway.
    'no-raw-characters': 'off',
    // Subresource integrity is for files from other hosts; the site loads only its own,
    // content-hashed assets.
    'require-sri': 'off',
    // Checked by html-validate-references.cjs instead: the same rule, in linear time.
    'no-missing-references': 'off',
    'docsgen-test/missing-references': 'error',
  },
};
const REFERENCES_PLUGIN = fileURLToPath(new URL('./html-validate-references.cjs', import.meta.url));

async function htmlFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await htmlFiles(full, base)));
    else if (entry.name.endsWith('.html')) out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out.sort();
}

const THREADS = Math.max(1, Math.min(2, availableParallelism()));

interface Document {
  file: string;
  html: string;
}

/** The fields of an html-validate message the report shows. */
type Found = Pick<Message, 'line' | 'column' | 'ruleId' | 'message' | 'selector'> & { file: string };

function describeMessage(m: Found): string {
  return `${m.file}:${m.line}:${m.column} ${m.ruleId}: ${m.message}${m.selector ? ` (${m.selector})` : ''}`;
}

/**
 * Validates documents in a worker thread with HTML_VALIDATE_CONFIG; resolves to the
 * errors found. The worker is plain JavaScript, as html-validate is.
 */
function validateInThread(documents: Document[]): Promise<Found[]> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { HtmlValidate, StaticConfigLoader } = require('html-validate');
    (async () => {
      const plugin = require(workerData.plugin);
      const validator = new HtmlValidate(new StaticConfigLoader({ ...workerData.config, plugins: [plugin] }));
      const errors = [];
      for (const { file, html } of workerData.documents) {
        const report = await validator.validateString(html, file);
        for (const result of report.results)
          for (const m of result.messages)
            if (m.severity === 2) errors.push({ file, line: m.line, column: m.column, ruleId: m.ruleId, message: m.message, selector: m.selector });
      }
      parentPort.postMessage(errors);
    })();
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { config: HTML_VALIDATE_CONFIG, plugin: REFERENCES_PLUGIN, documents } });
    worker.once('message', (errors: Found[]) => resolve(errors));
    worker.once('error', reject);
    worker.once('exit', (status) => (status === 0 ? undefined : reject(new Error(`the html-validate thread exited with status ${status}`))));
  });
}

describe('valid HTML (html-validate)', () => {
  let dist: string;
  let files: string[];

  before(async () => {
    dist = await builtSite();
    files = await htmlFiles(dist);
  });

  it('finds the whole site', () => {
    assert.ok(files.length > 80, `expected every page under both aliases, found ${files.length} HTML files`);
    for (const expected of ['index.html', '404.html', 'docs/api/pagamento.html', 'docs/api/pagamento/index.html', 'api-reference.html', 'blog/tags/hola.html']) {
      assert.ok(files.includes(expected), `dist/${expected} is built`);
    }
  });

  it('every HTML file in dist/ has 0 errors', async () => {
    // x.html and x/index.html are the same page: validate each distinct document once.
    const seen = new Map<string, string>();
    for (const file of files) {
      const html = await readFile(path.join(dist, file), 'utf8');
      if (!seen.has(html)) seen.set(html, file);
    }
    // Validation is all CPU: the documents are shared out by size between threads, one a core.
    const shares: Document[][] = Array.from({ length: THREADS }, () => []);
    const load = new Array<number>(THREADS).fill(0);
    for (const [html, file] of [...seen].sort((a, b) => b[0].length - a[0].length)) {
      const lightest = load.indexOf(Math.min(...load));
      shares[lightest]!.push({ file, html });
      load[lightest]! += html.length;
    }
    const errors = (await Promise.all(shares.map(validateInThread))).flat().map(describeMessage);
    assert.ok(seen.size > 40, 'distinct pages were validated');
    assert.deepEqual(errors, [], `${errors.length} HTML errors:\n${errors.slice(0, 50).join('\n')}`);
  });

  it('the validator would catch what it is here for', async () => {
    // A gate that cannot fail proves nothing: a figcaption in the middle of its figure, a
    // duplicated id, and references to ids that are not there (one in a list of ids).
    // Through the same threads as the site's pages.
    const bad =
      '<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><figure><p id="a">b</p><figcaption>a</figcaption><p id="a">c</p></figure>' +
      '<label for="nowhere">x</label><input id="i" aria-describedby="a gone"></body></html>';
    const found = await validateInThread([{ file: 'bad.html', html: bad }]);
    const rules = found.map((m) => m.ruleId);
    for (const rule of ['no-dup-id', 'element-permitted-order']) assert.ok(rules.includes(rule), `${rule} is reported (got ${rules.join(', ')})`);
    const missing = found.filter((m) => m.ruleId === 'docsgen-test/missing-references').map((m) => m.message);
    assert.deepEqual(missing.sort(), ['Element references missing id "gone"', 'Element references missing id "nowhere"']);
  });
});
