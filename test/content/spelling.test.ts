/**
 * The portal reads well: the Portuguese passes the spelling check with the pt-BR
 * dictionary, and the built site has no filler or placeholder text.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Parser } from 'htmlparser2';
import { builtSite, repoRoot } from '../helpers/site.ts';

const TEXT_ATTRIBUTES = new Set(['alt', 'title', 'content', 'placeholder', 'value', 'label']);

describe('language', () => {
  it('the Portuguese passes cspell with the pt-BR dictionary and the project word list', () => {
    const bin = path.join(repoRoot, 'node_modules/cspell/bin.mjs');
    // cspell's cache (by content; a new config or cspell version discards it) checks only the files that changed since the last run.
    const cache = ['--cache', '--cache-strategy', 'content', '--cache-location', path.join(repoRoot, 'node_modules/.cache/cspell-cache.json')];
    const result = spawnSync(process.execPath, [bin, 'lint', '--no-progress', '--no-summary', '--no-must-find-files', ...cache, '--config', path.join(repoRoot, 'cspell.json')], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, `cspell found unknown words (fix the spelling; add only product terms, ids and English technical words to cspell.json):\n${result.stdout}${result.stderr}`);
  });

  it('the built site has no lorem ipsum, TODO, "em breve" or placeholder text', async () => {
    const dist = await builtSite();
    // Markers are upper case (Portuguese "todo" means "every"); phrases in any case.
    const forbidden = [/\b(TODO|FIXME|TBD|XXX)\b/, /lorem ipsum|em breve|coming soon|placeholder|a definir|preencher aqui|\[insira|texto de exemplo/i];
    const failures: string[] = [];
    const files = readdirSync(dist, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.html'));
    assert.ok(files.length > 30, `only ${files.length} HTML files in the built site`);
    for (const entry of files) {
      const file = path.join(entry.parentPath, entry.name);
      const html = readFileSync(file, 'utf8');
      const found: string[] = [];
      const scan = (text: string, what: string): void => {
        for (const pattern of forbidden) {
          const m = pattern.exec(text);
          if (m) found.push(`${what}: …${text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40).replace(/\s+/g, ' ')}…`);
        }
      };
      const parser = new Parser({
        ontext: (text) => scan(text, 'text'),
        // Attributes a reader sees or hears; class names and URLs are not text.
        onattribute: (name, value) => {
          if (TEXT_ATTRIBUTES.has(name) || name.startsWith('aria-') || name.startsWith('data-')) scan(value, `attribute ${name}`);
        },
        oncomment: (text) => scan(text, 'comment'),
      });
      parser.write(html);
      parser.end();
      if (found.length > 0) failures.push(`${path.relative(dist, file)}: ${found.join(' | ')}`);
    }
    assert.deepEqual(failures, []);
  });
});
