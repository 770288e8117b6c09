/**
 * esbuild's failures as docsgen errors: the first message's text, its place
 * (file:line:column, the column 1-based as editors count) and the line with a caret.
 * The client bundle, .tsx pages and the templates watch mode reloads all report this way.
 */
import type { BuildFailure, Message } from 'esbuild';
import { DocsgenError, lineExcerpt } from './errors.ts';

export interface EsbuildErrorOptions {
  /** What failed, the start of the message: "Client bundle failed". */
  what: string;
  hint: string;
  /** The file to name instead of esbuild's (a site-relative path the author knows). */
  file?: string;
}

export function esbuildError(error: unknown, options: EsbuildErrorOptions): DocsgenError {
  const first: Message | undefined = (error as Partial<BuildFailure> | undefined)?.errors?.[0];
  // A plugin's own error already says what to do (esbuild keeps the thrown value in `detail`).
  if (first?.detail instanceof DocsgenError) return first.detail;
  const location = first?.location ?? undefined;
  const column = location ? location.column + 1 : undefined;
  return new DocsgenError(`${options.what}: ${first?.text ?? (error instanceof Error ? error.message : String(error))}`, {
    file: options.file ?? location?.file,
    line: location?.line,
    column,
    excerpt: location?.lineText ? lineExcerpt(location.line, location.lineText, column) : undefined,
    hint: options.hint,
    cause: error,
  });
}
