/**
 * Finds the import statement an MDX evaluation error is about. Node reports a missing
 * module by its resolved path, never by the line of the MDX file, which is what the
 * author needs.
 */
import path from 'node:path';

export interface ImportProblem {
  line: number;
  column: number;
  message: string;
  hint: string;
}

const IMPORT = /^import\s+(?:[\s\S]*?\s+from\s+)?(['"])([^'"\n]+)\1/gm;

export function locateImportError(source: string, file: string, error: unknown): ImportProblem | undefined {
  const text = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && !/Cannot find (module|package)/.test(text)) return undefined;
  for (const match of source.matchAll(IMPORT)) {
    const [statement, , specifier = ''] = match;
    const resolved = specifier.startsWith('.') || specifier.startsWith('/') ? path.resolve(path.dirname(file), specifier) : specifier;
    if (!text.includes(`'${specifier}'`) && !text.includes(`'${resolved}'`)) continue;
    return {
      line: source.slice(0, match.index).split('\n').length,
      column: statement.indexOf(specifier) + 1,
      message: `The import '${specifier}' cannot be found.`,
      hint: 'Fix the path (it is relative to this file, with its extension) or install the package. Built-in components (Tabs, TabItem, ...) need no import.',
    };
  }
  return undefined;
}
