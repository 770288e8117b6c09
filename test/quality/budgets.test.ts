/**
 * Byte budgets on the built site, gzip level 9 of each file on its own (what
 * bundle-size tools report; `npm run bench` measures the same pages in a browser):
 * - the JavaScript a doc page runs before the load event: the router module, its static
 *   imports and any module it preloads (islands load later and are not counted);
 * - the CSS a doc page links;
 * - the HTML of the doc pages.
 * A failing budget names the file that grew. Budgets sit a little above what the site
 * measures now: raise one only with a reason in the commit, never to make a test pass.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { staticImports, withStaticImports } from '../helpers/esm.ts';
import { builtSite } from '../helpers/site.ts';

const KB = 1024;
/** The doc page the budgets read (long, with sidebar, TOC, tables and code). */
const DOC_PAGE = 'docs/api/pagamento/index.html';

export const BUDGETS = {
  js: {
    /** The issue's target is 10 KB before load; this keeps room under it. */
    total: 9.5 * KB,
    /** By role, matched on the file name. Shared chunks are named by hash only, so they share one budget. */
    files: [
      { role: 'router module', pattern: /^assets\/main-[\w-]+\.js$/, gzip: 8 * KB },
      { role: 'shared chunks the router imports', pattern: /^assets\/chunk-[\w-]+\.js$/, gzip: 2 * KB, summed: true },
    ],
  },
  css: {
    total: 7.5 * KB,
    files: [
      { role: 'site stylesheet', pattern: /^assets\/styles-[\w-]+\.css$/, gzip: 7 * KB },
      { role: 'code highlighting colours', pattern: /^assets\/code-[\w-]+\.css$/, gzip: 0.5 * KB },
    ],
  },
  html: {
    /** The page the other budgets read. */
    docPage: 15 * KB,
    /** Any page under /docs. */
    anyDocPage: 24 * KB,
  },
};

interface Sized {
  file: string;
  gzip: number;
}

const gzipSize = (bytes: Buffer | string) => gzipSync(bytes, { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / KB).toFixed(2)} KB`;

/** Files (relative to dist) of everything the page's HTML makes the browser run before load. */
async function jsBeforeLoad(dist: string, html: string): Promise<string[]> {
  const entries = [
    ...Array.from(html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g), (m) => m[1]!),
    ...Array.from(html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g), (m) => m[1]!),
    ...Array.from(html.matchAll(/<script\b(?![^>]*\btype="module")[^>]*\bsrc="([^"]+)"/g), (m) => m[1]!),
  ];
  return withStaticImports(entries, (file) => readFile(path.join(dist, file), 'utf8'));
}

async function sized(dist: string, files: string[]): Promise<Sized[]> {
  return Promise.all(files.map(async (file) => ({ file, gzip: gzipSize(await readFile(path.join(dist, file))) })));
}

/** Checks a total and per-role budgets; returns one line per breach, naming the files. */
function breaches(kind: string, files: Sized[], budget: { total: number; files: { role: string; pattern: RegExp; gzip: number; summed?: boolean }[] }): string[] {
  const out: string[] = [];
  const listing = [...files].sort((a, b) => b.gzip - a.gzip).map((f) => `${f.file} ${kb(f.gzip)}`).join(', ');
  for (const role of budget.files) {
    const matching = files.filter((f) => role.pattern.test(f.file));
    if (role.summed) {
      const sum = matching.reduce((s, f) => s + f.gzip, 0);
      if (sum > role.gzip) out.push(`${role.role} are ${kb(sum)} gzip together, over their ${kb(role.gzip)} budget: ${matching.map((f) => `${f.file} ${kb(f.gzip)}`).join(', ')}`);
    } else {
      for (const f of matching) if (f.gzip > role.gzip) out.push(`${f.file} (${role.role}) is ${kb(f.gzip)} gzip, over its ${kb(role.gzip)} budget`);
    }
  }
  const unbudgeted = files.filter((f) => !budget.files.some((r) => r.pattern.test(f.file)));
  for (const f of unbudgeted) out.push(`${f.file} (${kb(f.gzip)}) is new ${kind} on a doc page with no budget of its own: give it one in BUDGETS, or keep it off the page`);
  const total = files.reduce((s, f) => s + f.gzip, 0);
  if (total > budget.total) out.push(`all ${kind} of the page is ${kb(total)} gzip, over the ${kb(budget.total)} budget; largest first: ${listing}`);
  return out;
}

async function docPages(dist: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(path.join(dist, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) await walk(rel);
      else if (entry.name === 'index.html') out.push(rel);
    }
  };
  await walk('docs');
  return out.sort();
}

describe('byte budgets of the built site (gzip -9)', () => {
  let dist: string;
  let html: string;

  before(async () => {
    dist = await builtSite();
    html = await readFile(path.join(dist, DOC_PAGE), 'utf8');
  });

  it('JavaScript a doc page runs before the load event', async (t) => {
    const files = await sized(dist, await jsBeforeLoad(dist, html));
    t.diagnostic(`JS before load: ${files.map((f) => `${f.file} ${kb(f.gzip)}`).join(', ')}; total ${kb(files.reduce((s, f) => s + f.gzip, 0))}`);
    assert.ok(files.some((f) => /^assets\/main-/.test(f.file)), `${DOC_PAGE} loads the router module`);
    assert.ok(!files.some((f) => /island-/.test(f.file)), `no island module is loaded before load on ${DOC_PAGE}: ${files.map((f) => f.file).join(', ')}`);
    const found = breaches('JavaScript', files, BUDGETS.js);
    assert.deepEqual(found, [], `JavaScript budget of ${DOC_PAGE} exceeded:\n${found.join('\n')}`);
  });

  it('CSS a doc page links', async (t) => {
    const hrefs = Array.from(html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g), (m) => m[1]!.replace(/^\//, ''));
    const files = await sized(dist, hrefs);
    t.diagnostic(`CSS: ${files.map((f) => `${f.file} ${kb(f.gzip)}`).join(', ')}; total ${kb(files.reduce((s, f) => s + f.gzip, 0))}`);
    assert.ok(files.length > 0, `${DOC_PAGE} links a stylesheet`);
    const found = breaches('CSS', files, BUDGETS.css);
    assert.deepEqual(found, [], `CSS budget of ${DOC_PAGE} exceeded:\n${found.join('\n')}`);
  });

  it('HTML of the doc pages', async (t) => {
    const own = gzipSize(html);
    const pages = await sized(dist, await docPages(dist));
    const largest = [...pages].sort((a, b) => b.gzip - a.gzip);
    t.diagnostic(`${DOC_PAGE} ${kb(own)}; largest doc pages: ${largest.slice(0, 3).map((p) => `${p.file} ${kb(p.gzip)}`).join(', ')}`);
    assert.ok(pages.length > 25, 'every doc page is measured');
    assert.ok(own <= BUDGETS.html.docPage, `${DOC_PAGE} is ${kb(own)} gzip, over its ${kb(BUDGETS.html.docPage)} budget`);
    const over = largest.filter((p) => p.gzip > BUDGETS.html.anyDocPage).map((p) => `${p.file} ${kb(p.gzip)}`);
    assert.deepEqual(over, [], `doc pages over the ${kb(BUDGETS.html.anyDocPage)} gzip budget: ${over.join(', ')}`);
  });
});

describe('budget helpers', () => {
  it('reads the static imports esbuild writes, and not dynamic ones', () => {
    const code = 'import{a as b,c}from"./chunk-A.js";import"./chunk-B.js";import * as n from "./chunk-C.js";var x=import("./island.js");import{z}from"./late.js"';
    assert.deepEqual(staticImports(code), ['./chunk-A.js', './chunk-B.js', './chunk-C.js']);
  });

  it('names the file over its budget and the files behind an exceeded total', () => {
    const files = [
      { file: 'assets/main-X.js', gzip: 9 * KB },
      { file: 'assets/chunk-Y.js', gzip: 1 * KB },
    ];
    const found = breaches('JavaScript', files, BUDGETS.js);
    assert.ok(found.some((line) => line.startsWith('assets/main-X.js (router module) is 9.00 KB')), found.join('\n'));
    assert.ok(found.some((line) => line.includes('over the 9.50 KB budget') && line.includes('assets/main-X.js 9.00 KB, assets/chunk-Y.js 1.00 KB')), found.join('\n'));
  });
});
