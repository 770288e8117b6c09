/**
 * When watch mode builds: the saves of a moment become one build, one build runs at a
 * time, and the saves made meanwhile become one more build. A build's result is shown
 * only once its files stopped changing (an editor may write a file in place, in parts):
 * the build starts at once and asks, before it publishes, whether each file is still the
 * one it read and has been quiet for a while (see `settled`). A save the file watcher
 * dropped (chokidar ignores a change that follows another on the same file within 50 ms)
 * is caught by a second look at the file just after that window.
 */
import { statSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileSignature, signatureOfSync } from '../file-signature.ts';

export interface RebuildQueueOptions {
  /** Quiet time after a change before building, so the several events of one save make one build. */
  debounceMs: number;
  /** How long a changed file must have stayed unmodified before a build that read it is shown. */
  settleMs: number;
  /**
   * Builds the changed files; `since` is when the first of them was seen (performance.now()).
   * Before it shows its result (or its error), the build awaits `settled()`: false means a
   * file changed after the build read it, and the build must show nothing; the queue
   * builds the batch again.
   */
  build(batch: ReadonlySet<string>, since: number, settled: () => Promise<boolean>): Promise<void>;
  /** Any change: what the last build still does in the background should make way. */
  onChange?(file: string): void;
  /** The first save of a burst while no build runs: the moment to start reading it. */
  onFirstSave?(file: string): void;
  /** A build that threw (the build should report its own errors; this is for the unexpected). */
  onError?(error: unknown): void;
}

export interface RebuildQueue {
  /** A file or folder was added or removed. */
  added(file: string): void;
  /** A file's contents changed; `stats` as the file watcher saw them. */
  modified(file: string, stats?: Stats): void;
  /** Runs `work` (the first build) as a build: changes seen meanwhile wait for it. */
  run(work: () => Promise<void>): void;
  /** Files seen changed and not yet built. */
  readonly waiting: number;
  /** Resolves once no change waits and no build runs. */
  idle(): Promise<void>;
  /** Stops taking changes; resolves once the build under way (if any) ended. */
  close(): Promise<void>;
}

/** chokidar ignores a second change to a file this soon after the first. */
const CHANGE_THROTTLE_MS = 50;
/** A file written continuously (or with an mtime in the future) is shown after this many times settleMs anyway. */
const MAX_SETTLE_FACTOR = 40;

export function createRebuildQueue(options: RebuildQueueOptions): RebuildQueue {
  let pending = new Set<string>();
  /** When the first change of the waiting batch was seen: the terminal times from there. */
  let pendingSince: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;
  /** The second look at each file just changed. */
  const trailing = new Map<string, NodeJS.Timeout>();
  /** "mtime:size" of each changed file as the build that took it found it. */
  const builtAs = new Map<string, string>();

  const added = (file: string) => {
    options.onChange?.(file);
    if (closed) return;
    pendingSince ??= performance.now();
    pending.add(file);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      kick();
    }, options.debounceMs);
  };

  const modified = (file: string, stats?: Stats) => {
    // Only the first save of a burst: reading each one would only delay the build that takes them all.
    const burst = pending.size > 0;
    added(file);
    if (closed) return;
    if (!burst && !running) options.onFirstSave?.(file);
    clearTimeout(trailing.get(file));
    const seen = stats ? fileSignature(stats) : undefined;
    const check = setTimeout(() => {
      trailing.delete(file);
      void stat(file).then(
        (now) => {
          const current = fileSignature(now);
          if (!closed && current !== seen && current !== builtAs.get(file)) modified(file, now);
        },
        () => undefined,
      );
    }, CHANGE_THROTTLE_MS + 10);
    check.unref();
    trailing.set(file, check);
  };

  const start = (work: () => Promise<void>) => {
    running = work()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        running = undefined;
        // Changes seen meanwhile wait for their own quiet time (the timer), or are taken at once if it already passed.
        if (!timer) kick();
      });
  };

  function kick(): void {
    if (running || closed || pending.size === 0) return;
    const batch = pending;
    const since = pendingSince ?? performance.now();
    pending = new Set();
    pendingSince = undefined;
    start(async () => {
      // As the build will read them: the check before showing its result compares with these.
      const read = new Map<string, string | undefined>();
      for (const file of batch) {
        const signature = signatureOfSync(file);
        read.set(file, signature);
        if (signature) builtAs.set(file, signature);
        else builtAs.delete(file);
      }
      if (closed) return;
      const deadline = since + options.settleMs * MAX_SETTLE_FACTOR;
      let superseded = false;
      await options.build(batch, since, async () => {
        superseded = !(await settled(read, options.settleMs, deadline, () => closed));
        return !superseded;
      });
      // The watcher reports the newer version too, but a change it does not report (a
      // folder's time moved by an ignored file) must not leave the shown result behind.
      if (superseded && !closed) for (const file of batch) added(file);
    });
  }

  return {
    added,
    modified,
    run(work) {
      if (running) throw new Error('A build is already running.');
      start(work);
    },
    get waiting() {
      return pending.size;
    },
    async idle() {
      while (!closed && (timer || running || pending.size > 0)) {
        if (running) await running;
        else await new Promise((resolve) => setTimeout(resolve, options.debounceMs));
      }
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      for (const check of trailing.values()) clearTimeout(check);
      trailing.clear();
      await running;
    },
  };
}

/**
 * Whether the files a build read are still what it read, once each has stayed unmodified
 * for `quietMs`: an editor that writes a file in place truncates it first, and a build of
 * the half-written file would show an error for a file that is only half written. The
 * build has usually taken longer than `quietMs` by the time it asks, so this costs no
 * wait; a file modified since the build read it answers false at once. After `deadline`
 * (a file written continuously, an mtime in the future) the result is shown as it is.
 */
async function settled(read: ReadonlyMap<string, string | undefined>, quietMs: number, deadline: number, stop: () => boolean): Promise<boolean> {
  for (;;) {
    const now = Date.now();
    let youngest = Infinity;
    for (const [file, signature] of read) {
      const info = statSync(file, { throwIfNoEntry: false });
      if ((info ? fileSignature(info) : undefined) !== signature) return false;
      if (info?.isFile()) youngest = Math.min(youngest, now - info.mtimeMs);
    }
    if (youngest >= quietMs || stop() || performance.now() >= deadline) return true;
    await new Promise((resolve) => setTimeout(resolve, Math.min(quietMs, Math.max(1, quietMs - youngest))));
  }
}
