/**
 * A layout or component that throws while a page renders fails every page that uses it.
 * Reported per page, the one mistake reads as dozens of broken documents, each with a
 * hint about its own MDX; reported once at the template's line, it reads as what it is.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { codeExcerpt, DocsgenError } from './errors.ts';
import { isInside, type SourceMapReader, type SourcePosition } from './stack-frames.ts';

/** Where in a template `error` was thrown, or undefined when it was not thrown by one. */
export function templateFrame(error: unknown, reader: SourceMapReader, templatesDir: string): SourcePosition | undefined {
  const frame = reader.firstOwnFrame(error);
  return frame && isInside(templatesDir, frame.file) ? frame : undefined;
}

/** One template error and the pages it failed, in the order they were rendered. */
export interface TemplateFailure {
  at: SourcePosition;
  message: string;
  /** How many pages failed. */
  pages: number;
  /** Their source files (or routes, for pages made from no file): one file may make several pages. */
  sources: Set<string>;
  cause: unknown;
}

/** The same error at the same place, whichever page was being rendered. */
export function templateFailureKey(at: SourcePosition, message: string): string {
  return `${at.file}:${at.line}:${at.column}\0${message}`;
}

const SHOWN_PAGES = 3;

/** `root` is the site's folder: a template below it is named relative to it, as the site's own files are. */
export function templateError(failure: TemplateFailure, root: string): DocsgenError {
  const { at, pages } = failure;
  const sources = [...failure.sources];
  const file = isInside(root, at.file) ? path.relative(root, at.file) : at.file;
  let excerpt: string | undefined;
  try {
    excerpt = codeExcerpt(readFileSync(at.file, 'utf8'), at.line, at.column);
  } catch {
    // The template was removed or renamed since: the position alone still says where.
  }
  const count = pages === 1 ? '1 page' : `${pages} pages`;
  const named = sources.slice(0, SHOWN_PAGES).join(', ') + (sources.length > SHOWN_PAGES ? ` and ${sources.length - SHOWN_PAGES} more` : '');
  return new DocsgenError(`A template threw while rendering ${count}: ${failure.message}`, {
    file,
    line: at.line,
    column: at.column,
    excerpt,
    hint:
      `The error is in the template at this line, not in the pages that use it (${named}). ` +
      'Fix the expression there; templates run in Node for every page, without window or document, and get only the props their caller passes.',
    cause: failure.cause,
  });
}
