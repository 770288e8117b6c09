/**
 * The API pages' highlighted code, kept between builds beside the compiled documents.
 * The request samples and examples of an API document are hundreds of code blocks, and
 * highlighting them took about a second of every build of the real site: most of a build
 * whose documents all came from the compile cache.
 *
 * One file holds what the last build highlighted, by language and code, with the token
 * classes each block uses (as a compiled document's entry keeps its own), so the code
 * stylesheet comes out the same as when they are highlighted again. It is valid only for
 * the highlighter and the options that made it (the salt the caller gives); a missing,
 * stale or unreadable file only costs the highlighting.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeCacheFile } from '../cache-file.ts';
import type { DiskEntry } from '../stages/compile.ts';

type Classes = DiskEntry['classes'];

interface StoredFile {
  salt: string;
  /** By hash of language and code: the highlighted HTML and the classes it uses. */
  entries: Record<string, [html: string, classes: Classes]>;
}

export interface HighlightStore {
  get(language: string, code: string): { html: string; classes: Classes } | undefined;
  /** Records what this build shows for (language, code), whether it came from here or not. */
  keep(language: string, code: string, html: string, classes: Classes): void;
  /** Writes what this build kept, if it differs from what was read; the next build reads it. */
  save(): Promise<void>;
}

const FILE = 'api-code.json';

export async function openHighlightStore(dir: string | undefined, salt: string): Promise<HighlightStore> {
  const read = dir ? await readStored(path.join(dir, FILE), salt) : {};
  const kept: StoredFile['entries'] = {};
  const keyOf = (language: string, code: string) => createHash('sha1').update(language).update('\0').update(code).digest('base64url');
  return {
    get(language, code) {
      const entry = read[keyOf(language, code)];
      return entry && { html: entry[0], classes: entry[1] };
    },
    keep(language, code, html, classes) {
      kept[keyOf(language, code)] = [html, classes];
    },
    async save() {
      if (!dir) return;
      const keys = Object.keys(kept);
      if (keys.length === Object.keys(read).length && keys.every((key) => read[key]?.[0] === kept[key]![0])) return;
      try {
        await mkdir(dir, { recursive: true });
        // Written aside and renamed: two builds of one site (a test run, watch mode beside a build) never read half a file.
        await writeCacheFile(path.join(dir, FILE), JSON.stringify({ salt, entries: kept } satisfies StoredFile));
      } catch {
        // A cache that cannot be written only costs speed on the next build.
      }
    },
  };
}

async function readStored(file: string, salt: string): Promise<StoredFile['entries']> {
  try {
    const stored = JSON.parse(await readFile(file, 'utf8')) as StoredFile;
    return stored.salt === salt && typeof stored.entries === 'object' && stored.entries !== null ? stored.entries : {};
  } catch {
    return {};
  }
}
