/**
 * What watch mode tells the author after each build: a terminal line (what changed, what
 * it did, how long it took) and, for a failed build, the error in full in the terminal
 * and in the overlay of open pages, kept until a build succeeds again.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DocsgenError, DocsgenErrors, codeExcerpt, formatAnyError, isDocsgenError } from '../errors.ts';
import { formatMs, shownPath, type Logger, type StageTiming } from '../log.ts';
import { routeOfFile } from '../../templates/shared/routes.ts';
import type { LiveReload, OverlayError, OverlayPayload } from './live.ts';
import type { OutputChange } from './served-output.ts';

export interface BuildReport {
  /** The files that started the build; none for the first build. */
  batch: ReadonlySet<string>;
  ms: number;
  timings: readonly StageTiming[];
}

export interface ErrorReporter {
  /** A build succeeded: clears the overlay; returns whether it fixed an error. */
  succeeded(): boolean;
  /** A build failed: prints the error and shows it in open pages. `placeholder`: no good build was ever served. */
  failed(error: unknown, report: BuildReport, placeholder: boolean): Promise<void>;
  /** Whether the last build failed. */
  readonly failing: boolean;
}

export function createErrorReporter(options: { root: string; logger: Logger; live: Pick<LiveReload, 'send' | 'setErrors'> }): ErrorReporter {
  let shown: OverlayPayload | undefined;
  return {
    get failing() {
      return shown !== undefined;
    },
    succeeded() {
      const recovered = shown !== undefined;
      shown = undefined;
      options.live.setErrors(undefined);
      if (recovered) options.live.send({ type: 'ok' });
      return recovered;
    },
    async failed(error, report, placeholder) {
      const explained = await explain(error, options.root);
      const { text } = explained;
      const payload: OverlayPayload = placeholder ? { ...explained.payload, noGoodBuild: true } : explained.payload;
      shown = payload;
      options.live.setErrors(payload);
      options.live.send({ type: 'build-error', payload });
      const serving = placeholder ? 'serving a placeholder page with the error until it is fixed' : 'still serving the last good build';
      options.logger.error(`${clock()} ${describeBatch(report.batch, options.root)} → build failed in ${formatMs(report.ms)}; ${serving}.\n\n${text}\n`);
    },
  };
}

/** "12:03:04 content/docs/a.mdx → page /docs/a updated in 80 ms (collect 3 ms · …)". */
export function successLine(change: OutputChange, report: BuildReport, root: string, recovered: boolean): string {
  return `${clock()} ${describeBatch(report.batch, root)} → ${summary(change)} in ${formatMs(report.ms)} (${stageTimes(report.timings)})${recovered ? '; the error is fixed' : ''}.`;
}

export function stageTimes(timings: readonly StageTiming[]): string {
  return timings.map((t) => `${t.name} ${formatMs(t.ms)}`).join(' · ');
}

/** What the build changed, for the terminal: pages updated and removed, or a stylesheet swapped. */
export function summary(change: OutputChange): string {
  if (change.written.length === 0 && change.deleted.length === 0) return 'no output changed';
  const removed = new Set(change.deleted.filter((f) => f.endsWith('.html')).map(routeOfFile));
  const updated = change.routes.filter((r) => !removed.has(r));
  const list = (routes: string[]) => (routes.length <= 3 ? routes.join(', ') : `${routes.slice(0, 3).join(', ')} and ${routes.length - 3} more`);
  const parts: string[] = [];
  if (change.cssSwap) parts.push(`stylesheet swapped without a reload (${Object.values(change.cssSwap).join(', ')})`);
  else if (updated.length > 0) parts.push(`${updated.length === 1 ? 'page' : `${updated.length} pages`} ${list(updated)} updated`);
  if (removed.size > 0) parts.push(`${list([...removed])} removed`);
  const files = change.written.length + change.deleted.length;
  if (parts.length === 0) parts.push(`${files} file${files === 1 ? '' : 's'} updated`);
  return parts.join('; ');
}

/** The files of a build as the author knows them; "first build" for none. */
export function describeBatch(batch: ReadonlySet<string>, root: string): string {
  if (batch.size === 0) return 'first build';
  const files = [...batch].map((f) => shownPath(f, root)).sort();
  return files.length <= 3 ? files.join(', ') : `${files.slice(0, 3).join(', ')} and ${files.length - 3} more`;
}

function clock(): string {
  return new Date().toTimeString().slice(0, 8);
}

/**
 * The terminal text and the overlay payload of a failed build. Problems that name a
 * line but carry no excerpt (a broken link, say) get the offending lines read from the
 * file, so the overlay and the terminal can show them.
 */
export async function explain(error: unknown, root: string): Promise<{ text: string; payload: OverlayPayload }> {
  if (!isDocsgenError(error)) {
    const message = error instanceof Error ? error.message : String(error);
    const stack = error instanceof Error ? error.stack : undefined;
    return {
      text: formatAnyError(error),
      payload: { errors: [{ message: `Unexpected error in docsgen (please report it): ${message}`, location: '', excerpt: stack }] },
    };
  }
  const list = error instanceof DocsgenErrors ? error.errors : [error];
  const enriched = await Promise.all(list.map((e) => withExcerpt(e, root)));
  const text = error instanceof DocsgenErrors ? formatAnyError(new DocsgenErrors(error.message, enriched)) : formatAnyError(enriched[0]);
  return {
    text,
    payload: {
      summary: error instanceof DocsgenErrors ? error.message : undefined,
      errors: enriched.map(
        (e): OverlayError => ({ message: e.message, location: e.location, file: e.file, line: e.line, column: e.column, excerpt: e.excerpt, hint: e.hint }),
      ),
    },
  };
}

async function withExcerpt(error: DocsgenError, root: string): Promise<DocsgenError> {
  if (error.excerpt || !error.file || error.line === undefined) return error;
  for (const candidate of [path.resolve(root, error.file), path.resolve(error.file)]) {
    const source = await readFile(candidate, 'utf8').catch(() => undefined);
    if (source === undefined) continue;
    return new DocsgenError(error.message, {
      file: error.file,
      line: error.line,
      column: error.column,
      hint: error.hint,
      excerpt: codeExcerpt(source, error.line, error.column),
      cause: error.cause,
    });
  }
  return error;
}
