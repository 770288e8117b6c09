/**
 * Build progress and timing. Stages are wrapped in task(), which times them and
 * records peak memory, so the summary and the benchmark read the same numbers.
 */
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
  task<T>(name: string, fn: () => Promise<T>): Promise<T>;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; tests pass an array-backed writer. */
  write?: (line: string) => void;
  writeError?: (line: string) => void;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'normal';
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const writeError = options.writeError ?? ((line: string) => process.stderr.write(`${line}\n`));
  const timings: StageTiming[] = [];
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
      const start = performance.now();
      if (level === 'verbose') write(`… ${name}`);
      try {
        return await fn();
      } finally {
        const ms = performance.now() - start;
        timings.push({ name, ms, rss: process.memoryUsage().rss });
        if (level === 'verbose') write(`✓ ${name} ${formatMs(ms)}`);
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
