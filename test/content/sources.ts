/**
 * The portal's sources as the content checks read them: MDX and TSX files split into
 * prose and fenced code blocks (with their line numbers), and the tables of the prose.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../helpers/site.ts';

export interface CodeBlock {
  /** relative to the repository root, posix */
  file: string;
  /** 1-based line of the opening fence */
  line: number;
  lang: string;
  meta: string;
  attrs: Record<string, string>;
  body: string;
}

export interface Source {
  file: string;
  text: string;
  /** The text with every fenced code block blanked out (line numbers kept). */
  prose: string;
  blocks: CodeBlock[];
}

export function listFiles(dir: string, extension: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(extension))
    .map((e) => path.relative(repoRoot, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

export function readSource(file: string): Source {
  const text = readFileSync(path.join(repoRoot, file), 'utf8');
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  const proseLines = [...lines];
  let open: { fence: string; indent: number; lang: string; meta: string; start: number; body: string[] } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!open) {
      const m = /^(\s*)(`{3,}|~{3,})([^\s`{]*)(.*)$/.exec(line);
      if (m && file.endsWith('.mdx')) {
        open = { fence: m[2] ?? '```', indent: (m[1] ?? '').length, lang: (m[3] ?? '').toLowerCase(), meta: (m[4] ?? '').trim(), start: i, body: [] };
        proseLines[i] = '';
      }
      continue;
    }
    proseLines[i] = '';
    const char = open.fence.charAt(0);
    if (new RegExp(`^\\s*\\${char}{${open.fence.length},}\\s*$`).test(line)) {
      const attrs: Record<string, string> = {};
      for (const a of open.meta.matchAll(/([A-Za-z_-]+)="([^"]*)"/g)) attrs[a[1] ?? ''] = a[2] ?? '';
      const indent = open.indent;
      blocks.push({
        file,
        line: open.start + 1,
        lang: open.lang,
        meta: open.meta,
        attrs,
        body: open.body.map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length))).join('\n'),
      });
      open = undefined;
    } else {
      open.body.push(line);
    }
  }
  assert.equal(open, undefined, `${file}:${(open?.start ?? 0) + 1}: code fence never closed`);
  return { file, text, prose: proseLines.join('\n'), blocks };
}

export const lineAt = (text: string, index: number): number => text.slice(0, index).split('\n').length;
export const where = (block: CodeBlock, offset = 0): string => `${block.file}:${block.line + offset}`;

/** Inline code spans of the prose, with their line. */
export function inlineCode(source: Source): { code: string; line: number }[] {
  const out: { code: string; line: number }[] = [];
  for (const m of source.prose.matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)) out.push({ code: (m[2] ?? '').trim(), line: lineAt(source.prose, m.index) });
  return out;
}

export interface Table {
  file: string;
  line: number;
  header: string[];
  rows: string[][];
}

export function tables(source: Source): Table[] {
  const out: Table[] = [];
  const lines = source.prose.split('\n');
  const cells = (line: string): string[] =>
    line
      .trim()
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*\|/.test(lines[i] ?? '') || !/^\s*\|?\s*:?-{3,}/.test(lines[i + 1] ?? '')) continue;
    const table: Table = { file: source.file, line: i + 1, header: cells(lines[i] ?? ''), rows: [] };
    let j = i + 2;
    for (; j < lines.length && /^\s*\|/.test(lines[j] ?? ''); j++) table.rows.push(cells(lines[j] ?? ''));
    out.push(table);
    i = j;
  }
  return out;
}

export const stripCode = (cell: string): string => cell.replace(/`/g, '').trim();

