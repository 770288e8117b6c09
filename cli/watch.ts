import { DocsgenError } from './errors.ts';
import type { LogLevel } from './log.ts';

export interface WatchOptions {
  root: string;
  port: number;
  host: string;
  outDir: string;
  level: LogLevel;
}

export async function serveWatch(options: WatchOptions): Promise<void> {
  void options;
  throw new DocsgenError('docsgen serve --watch is not available in this version.', {
    hint: 'Run `docsgen build` and `docsgen serve` instead; rebuild after each change.',
  });
}
