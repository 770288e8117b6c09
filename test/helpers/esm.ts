/** Reading the modules esbuild writes. */
import path from 'node:path';

/** The modules a module imports statically: esbuild writes them as the first statements of a chunk. */
export function staticImports(code: string): string[] {
  const found: string[] = [];
  const statement = /^\s*import\s*(?:[^;"'()]*?\bfrom\s*)?["']([^"']+)["'];?/;
  let rest = code;
  for (let match = statement.exec(rest); match; match = statement.exec(rest)) {
    found.push(match[1]!);
    rest = rest.slice(match[0].length);
  }
  return found;
}

/**
 * The files of modules and of everything they import statically, as paths from the site's
 * root without the leading '/' (`assets/main-X.js`); `read` gives a file's code.
 */
export async function withStaticImports(urls: readonly string[], read: (file: string) => string | Promise<string>): Promise<string[]> {
  const seen = new Set<string>();
  const visit = async (file: string): Promise<void> => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(await read(file))) await visit(path.posix.join(path.posix.dirname(file), spec));
  };
  for (const url of urls) await visit(url.replace(/^\//, ''));
  return [...seen];
}
