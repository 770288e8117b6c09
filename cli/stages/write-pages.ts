/**
 * Writes pages into the staging folder as the render stage hands them over, a batch at a
 * time, so a build holds the HTML of a few dozen pages instead of the whole site's (at
 * 10,000 docs the rendered site is most of a build's memory). With a precompressor, each
 * written page is also compressed then, on the thread pool, while the main thread renders
 * the next pages: compressing them after the render left the second core idle during it.
 */
import { pageFiles } from '../../templates/shared/routes.ts';
import type { Precompressor } from './precompress.ts';
import type { RenderedPage } from './render.ts';
import type { OutputFile, OutputFolder } from './write.ts';

export interface PageWriter {
  /** Takes `page`; waits only while the batch before the one it fills is still being written. */
  add(page: RenderedPage): Promise<void>;
  /** Writes what is left and waits for every write; throws the first error any met. */
  finish(): Promise<{ fileCount: number; bytes: number }>;
}

/** Pages written together: enough to keep the disk busy, few enough to hold little. */
const BATCH = 32;
/** Written batches being compressed at once. */
const COMPRESSING_BATCHES = 2;

export function createPageWriter(folder: OutputFolder, options: { precompressor?: Precompressor } = {}): PageWriter {
  const { precompressor } = options;
  const totals = { fileCount: 0, bytes: 0 };
  // Each page's HTML encoded once, for both of its files and their compressed copies.
  let batch: { rels: string[]; contents: Buffer }[] = [];
  let writing: Promise<void> = Promise.resolve();
  /** Batches written and still being compressed, oldest first. */
  const compressing: Promise<void>[] = [];
  const flush = () => {
    const pages = batch;
    batch = [];
    // Batches are written one at a time, in order; a failed one fails every later call.
    // A written batch is compressed while the next one is written: chained behind the
    // writes, compression left the main thread waiting for a third of the render.
    writing = writing.then(async () => {
      const files = pages.flatMap(({ rels, contents }) => rels.map((rel): OutputFile => ({ path: rel, origin: 'page', contents })));
      const { written, bytes } = await folder.write(files);
      totals.fileCount += written.length;
      totals.bytes += bytes;
      if (precompressor) {
        const compressed = Promise.all(pages.map(({ rels, contents }) => precompressor.add(rels, contents))).then(() => undefined);
        compressed.catch(() => undefined);
        compressing.push(compressed);
      }
    });
    return writing;
  };
  return {
    async add(page) {
      batch.push({ rels: pageFiles(page.route), contents: Buffer.from(page.html) });
      if (batch.length < BATCH) return;
      // Rendering goes on while this batch is written; the one before must be written, and
      // the ones before it compressed, so at most a few batches of HTML are held.
      await writing;
      while (compressing.length >= COMPRESSING_BATCHES) await compressing.shift();
      void flush().catch(() => undefined);
    },
    async finish() {
      await writing;
      await flush();
      // Every batch settles before the first error is thrown: the build then removes the folder.
      const failed = (await Promise.allSettled(compressing.splice(0))).find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
      return { ...totals };
    },
  };
}
