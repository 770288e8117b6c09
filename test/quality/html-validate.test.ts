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
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { HtmlValidate, StaticConfigLoader, type ConfigData, type Message } from 'html-validate';
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
  },
};

async function htmlFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await htmlFiles(full, base)));
    else if (entry.name.endsWith('.html')) out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out.sort();
}

function describeMessage(file: string, m: Message): string {
  return `${file}:${m.line}:${m.column} ${m.ruleId}: ${m.message}${m.selector ? ` (${m.selector})` : ''}`;
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
    const validator = new HtmlValidate(new StaticConfigLoader(HTML_VALIDATE_CONFIG));
    // x.html and x/index.html are the same page: validate each distinct document once.
    const seen = new Map<string, string>();
    const errors: string[] = [];
    for (const file of files) {
      const html = await readFile(path.join(dist, file), 'utf8');
      if (seen.has(html)) continue;
      seen.set(html, file);
      const report = await validator.validateString(html, file);
      for (const result of report.results) for (const m of result.messages) if (m.severity === 2) errors.push(describeMessage(file, m));
    }
    assert.ok(seen.size > 40, 'distinct pages were validated');
    assert.deepEqual(errors, [], `${errors.length} HTML errors:\n${errors.slice(0, 50).join('\n')}`);
  });

  it('the validator would catch what it is here for', async () => {
    // A gate that cannot fail proves nothing: a figcaption in the middle of its figure and a duplicated id.
    const validator = new HtmlValidate(new StaticConfigLoader(HTML_VALIDATE_CONFIG));
    const bad = '<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><figure><p id="a">b</p><figcaption>a</figcaption><p id="a">c</p></figure></body></html>';
    const report = await validator.validateString(bad, 'bad.html');
    const rules = report.results.flatMap((r) => r.messages.map((m) => m.ruleId));
    for (const rule of ['no-dup-id', 'element-permitted-order']) assert.ok(rules.includes(rule), `${rule} is reported (got ${rules.join(', ')})`);
  });
});
