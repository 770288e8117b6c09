/**
 * How far V8 lets the heap grow past what survived its last full collection before it
 * collects again. Left to itself V8 allows up to four times the live heap when collecting
 * looks cheap next to the work between collections; a build keeps a few hundred megabytes
 * live for minutes while it makes gigabytes of short-lived garbage (rendered pages, parsed
 * HTML), so its resident memory stayed at two to three times what was live: 2.5 GB for a
 * 10,000-doc site whose live heap never passed 1 GB.
 *
 * This sets no limit: a site that needs more memory still gets all V8 would give it, it is
 * only collected sooner. The flag is read at every full collection, so setting it after
 * start-up takes effect from the next one. It holds for every thread of the process: the
 * build sets it once its compile workers are done (with it they compiled a third slower).
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The heap may grow by this share of what is live (V8's --heap-growing-percent). */
export const HEAP_GROWING_PERCENT = 35;

const FLAG = 'heap-growing-percent';

/** Bounds the heap's growth for the rest of the process, unless node was started with its own value. */
export function boundHeapGrowth(): void {
  if (process.execArgv.some((arg) => arg.replace(/_/g, '-').includes(FLAG))) return;
  v8.setFlagsFromString(`--${FLAG}=${HEAP_GROWING_PERCENT}`);
  // The limit set at the last full collection stands until the next one (up to four times
  // the heap then live): one collection now, so the bound holds from here. Node gives a
  // context made after --expose-gc its gc().
  v8.setFlagsFromString('--expose-gc');
  collectGarbageNow();
}

/**
 * A full collection now, so what the heap holds of garbage is not still held when threads
 * with heaps of their own start. Does nothing before boundHeapGrowth() (no gc() to call).
 */
export function collectGarbageNow(): void {
  const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
  if (typeof gc === 'function') (gc as () => void)();
}
