/**
 * Build progress and timing. Stages are wrapped in task(), which times them and
 * records peak memory, so the summary and the benchmark read the same numbers.
 *
 * A stage that works item by item reports through the Progress it is handed. On a
 * terminal the running stage shows a live count and an estimate of the time left
 * (`compile 4,231/9,933 · 38 s left`) on one line rewritten in place; without one (CI
 * logs) each stage prints one line when it ends, and a long stage one more every tenth
 * of its items, so a log shows where the time went. `quiet` prints neither. Stages that
 * run side by side (the crawl beside the search index) share the live line.
 */
import path from 'node:path';

export type LogLevel = 'quiet' | 'normal' | 'verbose';

export interface StageTiming {
  name: string;
  ms: number;
  /** Resident set size right after the stage, in bytes. */
  rss: number;
}

export interface Logger {
  readonly level: LogLevel;
  info(message: string): void;
  debug(message: string): void;
  warn(message: string): void;
  /** Always printed, whatever the level: errors are never silenced. */
  error(message: string): void;
  readonly timings: StageTiming[];
  task<T>(name: string, fn: (progress: Progress) => Promise<T>): Promise<T>;
}

/** `done` of `total` items of the running stage are finished. */
export type Progress = (done: number, total: number) => void;

/** A stage with at least this many items prints a line every tenth of them when there is no terminal. */
export const LONG_STAGE_ITEMS = 500;
/** The live line on a terminal is redrawn at most this often. */
const REDRAW_MS = 100;

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; tests pass an array-backed writer. */
  write?: (line: string) => void;
  writeError?: (line: string) => void;
  /**
   * Redraws the live progress line of a terminal ('' clears it). Set when output goes to
   * a terminal; without it, progress is printed as plain lines.
   */
  status?: (text: string) => void;
  /** Clock for estimates; tests pass their own. */
  now?: () => number;
}

/** The status writer for standard output when it is a terminal, else undefined. */
export function terminalStatus(): ((text: string) => void) | undefined {
  if (!process.stdout.isTTY) return undefined;
  return (text) => process.stdout.write(`\r\x1b[K${text}`);
}

const count = new Intl.NumberFormat('en-US');

/** '4,231/9,933 · 38 s left' (no estimate before a few items are done). */
export function progressText(name: string, done: number, total: number, elapsedMs: number): string {
  const left = done > 0 && done < total && elapsedMs > 500 ? ` · ${formatLeft((elapsedMs / done) * (total - done))} left` : '';
  return `${name} ${count.format(done)}/${count.format(total)}${left}`;
}

function formatLeft(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return seconds < 90 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'normal';
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const writeError = options.writeError ?? ((line: string) => process.stderr.write(`${line}\n`));
  const timings: StageTiming[] = [];
  const now = options.now ?? (() => performance.now());
  const status = level === 'quiet' ? undefined : options.status;
  /** The live text of each running stage that reported progress, in the order they started. */
  const live = new Map<string, string>();
  const redraw = () => status?.([...live.values()].join(' | '));
  /** Progress reporting of one running stage. */
  const progressOf = (name: string, start: number): Progress => {
    let drawn = -Infinity;
    let tenth = 0;
    return (done, total) => {
      if (level === 'quiet' || total <= 0) return;
      const t = now();
      if (status) {
        if (t - drawn < REDRAW_MS && done < total) return;
        drawn = t;
        live.set(name, progressText(name, done, total, t - start));
        redraw();
      } else if (total >= LONG_STAGE_ITEMS) {
        const reached = Math.floor((done * 10) / total);
        if (reached > tenth && done < total) {
          tenth = reached;
          write(`${progressText(name, done, total, t - start)} (${reached * 10} %)`);
        }
      }
    };
  };
  return {
    level,
    timings,
    info(message) {
      if (level !== 'quiet') write(message);
    },
    debug(message) {
      if (level === 'verbose') write(message);
    },
    warn(message) {
      if (level !== 'quiet') writeError(`warning: ${message}`);
    },
    error(message) {
      writeError(message);
    },
    async task(name, fn) {
      const start = now();
      if (level === 'verbose') write(`… ${name}`);
      let mark = '✗';
      try {
        const result = await fn(progressOf(name, start));
        mark = '✓';
        return result;
      } finally {
        const ms = now() - start;
        // The timings keep only the resident size: memoryUsage() also gathers the heap's statistics.
        timings.push({ name, ms, rss: process.memoryUsage.rss() });
        live.delete(name);
        redraw();
        // On a terminal the summary names every stage; a log gets a line per stage as it ends.
        if (level === 'verbose' || (level === 'normal' && !status)) write(`${mark} ${name} ${formatMs(ms)}`);
      }
    },
  };
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}

/** Relative to the site when inside it (content/docs/a.mdx), else as is (docsgen's templates, for a site elsewhere). */
export function shownPath(file: string, root: string): string {
  const rel = path.relative(root, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
}
