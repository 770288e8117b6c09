/**
 * One error type for everything an author or operator can fix. The CLI prints it
 * as "file:line:col  message" followed by the hint, so editors and terminals can
 * jump to the cause; anything else that escapes is a bug in docsgen and prints a stack.
 */
export interface DocsgenErrorOptions {
  /** What should be done to fix it, in one or two sentences. */
  hint?: string;
  /** Path of the file at fault, relative to the site root where possible. */
  file?: string;
  line?: number;
  column?: number;
  /** The offending source lines, already formatted with line numbers. */
  excerpt?: string;
  cause?: unknown;
}

export class DocsgenError extends Error {
  readonly hint?: string;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly excerpt?: string;

  constructor(message: string, options: DocsgenErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DocsgenError';
    this.hint = options.hint;
    this.file = options.file;
    this.line = options.line;
    this.column = options.column;
    this.excerpt = options.excerpt;
  }

  /** "content/docs/a.mdx:12:3", or just the file, or nothing. */
  get location(): string {
    if (!this.file) return '';
    if (this.line === undefined) return this.file;
    return `${this.file}:${this.line}${this.column === undefined ? '' : `:${this.column}`}`;
  }
}

/** Several independent problems found in one pass, reported together. */
export class DocsgenErrors extends Error {
  readonly errors: readonly DocsgenError[];
  constructor(summary: string, errors: readonly DocsgenError[]) {
    super(summary);
    this.name = 'DocsgenErrors';
    this.errors = errors;
  }
}

export function isDocsgenError(value: unknown): value is DocsgenError | DocsgenErrors {
  return value instanceof DocsgenError || value instanceof DocsgenErrors;
}

/** An author's error as it crosses between threads: an Error loses its own fields on the way. */
export type PlainError = {
  message: string;
  hint?: string;
  file?: string;
  line?: number;
  column?: number;
  excerpt?: string;
  /** Set for several errors reported together (DocsgenErrors). */
  errors?: PlainError[];
};

export function toPlainError(error: DocsgenError | DocsgenErrors): PlainError {
  if (error instanceof DocsgenErrors) return { message: error.message, errors: error.errors.map((e) => toPlainError(e)) };
  const { message, hint, file, line, column, excerpt } = error;
  return { message, hint, file, line, column, excerpt };
}

export function fromPlainError(plain: PlainError): DocsgenError | DocsgenErrors {
  if (plain.errors) return new DocsgenErrors(plain.message, plain.errors.map((e) => fromPlainError(e) as DocsgenError));
  const { message, ...options } = plain;
  return new DocsgenError(message, options);
}

/** Formats a few lines of `source` around `line` (1-based) with a caret under `column`. */
export function codeExcerpt(source: string, line: number, column?: number, context = 2): string {
  const lines = source.split(/\r?\n/);
  const first = Math.max(1, line - context);
  const last = Math.min(lines.length, line + context);
  return excerptRows(
    Array.from({ length: last - first + 1 }, (_, i) => ({ number: first + i, text: lines[first + i - 1] ?? '' })),
    line,
    column,
  );
}

/** The same format for one line known only by its text (a compiler reports the line, not the file). */
export function lineExcerpt(line: number, text: string, column?: number): string {
  return excerptRows([{ number: line, text }], line, column);
}

function excerptRows(rows: readonly { number: number; text: string }[], line: number, column: number | undefined): string {
  const width = String(rows[rows.length - 1]?.number ?? line).length;
  const out: string[] = [];
  for (const row of rows) {
    out.push(`${row.number === line ? '>' : ' '} ${String(row.number).padStart(width)} | ${row.text}`);
    if (row.number === line && column !== undefined && column > 0) out.push(`  ${' '.repeat(width)} | ${' '.repeat(column - 1)}^`);
  }
  return out.join('\n');
}

/** Renders one error as the terminal shows it (no colours: CI logs and tests read it too). */
export function formatError(error: DocsgenError): string {
  const parts: string[] = [];
  const where = error.location;
  parts.push(where ? `${where}  ${error.message}` : error.message);
  if (error.excerpt) parts.push(error.excerpt);
  if (error.hint) parts.push(`  Fix: ${error.hint}`);
  return parts.join('\n');
}

export function formatAnyError(error: unknown): string {
  if (error instanceof DocsgenErrors) {
    return [error.message, ...error.errors.map((e) => formatError(e))].join('\n\n');
  }
  if (error instanceof DocsgenError) return formatError(error);
  if (error instanceof Error) return `Unexpected error in docsgen (please report it):\n${error.stack ?? error.message}`;
  return `Unexpected error in docsgen: ${String(error)}`;
}
