/** Reading the modules esbuild writes. */

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
