/**
 * Writes pages into the staging folder as the render stage hands them over, so a build
 * holds the HTML of a few pages at a time instead of the whole site's (at 10,000 docs the
 * rendered site is most of a build's memory). Every page goes under both of its names,
 * as write() would write it.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RenderedPage } from './render.ts';
import { pageFiles } from './write.ts';

export interface PageWriter {
  /** Starts writing `page`; waits only while enough pages are being written already. */
  add(page: RenderedPage): Promise<void>;
  /** Waits for every page added; throws the first error any of them met. */
  finish(): Promise<{ fileCount: number; bytes: number }>;
}

/** Pages being written at once: enough to keep the disk busy, few enough to hold little. */
const IN_FLIGHT = 32;

/** Empties `dir` (what an interrupted build left) and writes pages into it. */
export async function createPageWriter(dir: string): Promise<PageWriter> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  // Folders by the promise that makes them: a page whose folder another page is making waits for it.
  const folders = new Map<string, Promise<unknown>>([[dir, Promise.resolve()]]);
  const writing = new Set<Promise<void>>();
  const totals = { fileCount: 0, bytes: 0 };
  const failures: unknown[] = [];

  const writePage = async (page: RenderedPage) => {
    for (const rel of pageFiles(page.route)) {
      const file = path.join(dir, rel);
      const folder = path.dirname(file);
      let making = folders.get(folder);
      if (!making) folders.set(folder, (making = mkdir(folder, { recursive: true })));
      await making;
      await writeFile(file, page.html);
      totals.fileCount++;
      totals.bytes += Buffer.byteLength(page.html);
    }
  };

  return {
    async add(page) {
      if (failures.length > 0) throw failures[0];
      const done: Promise<void> = writePage(page).then(
        () => void writing.delete(done),
        (error: unknown) => {
          writing.delete(done);
          failures.push(error);
        },
      );
      writing.add(done);
      if (writing.size >= IN_FLIGHT) await Promise.race(writing);
    },
    async finish() {
      await Promise.all(writing);
      if (failures.length > 0) throw failures[0];
      return { ...totals };
    },
  };
}
