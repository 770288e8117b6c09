/**
 * Resource limits for MDX sources, checked before the MDX compiler sees the text.
 * Markdown's container rules make a list nested thousands of levels deep quadratic to
 * parse (tens of seconds) and deep enough to overflow the stack of the recursive steps
 * after it (mdast to hast, estree, React's renderer); a huge file is the same in bulk.
 * Both fail fast with the line and a fix instead.
 */
import type { Root } from 'mdast';
import type { Plugin } from 'unified';

/** Bytes of one MDX source; the largest real docs are a few tens of kilobytes. */
export const MAX_MDX_BYTES = 2 * 1024 * 1024;
/** Lists, quotes and elements inside one another; readable prose stays under ten. */
export const MAX_MDX_NESTING = 64;

export interface LimitProblem {
  message: string;
  line: number;
  column: number;
  hint: string;
}

export const NESTING_HINT = `Flatten the structure: docsgen reads at most ${MAX_MDX_NESTING} levels of lists, block quotes and JSX elements inside one another. Split the list or move the inner part into its own section.`;

/** The block quote markers and list markers at the start of a line, with their spaces. */
const CONTAINER_PREFIX = /^(?: *(?:>|[-*+](?= )|\d{1,9}[.)](?= )))* */;

/** Size and Markdown container depth, from the text alone (linear in its length). */
export function checkMdxSource(source: string): LimitProblem | undefined {
  const bytes = Buffer.byteLength(source);
  if (bytes > MAX_MDX_BYTES) {
    return {
      message: `The file is ${(bytes / 1024 / 1024).toFixed(1)} MB; docsgen compiles MDX files of up to ${MAX_MDX_BYTES / 1024 / 1024} MB.`,
      line: 1,
      column: 1,
      hint: 'Split it into several documents (a page this long is also too long to read), or move generated data into a file under static/.',
    };
  }
  let fence: string | undefined;
  // Content columns of the list items still open, as Markdown's container rules track them.
  const open: number[] = [];
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\t/g, '    ');
    const prefix = CONTAINER_PREFIX.exec(line)?.[0] ?? '';
    const rest = line.slice(prefix.length);
    const fenceMatch = /^(`{3,}|~{3,})/.exec(rest);
    if (fence) {
      if (fenceMatch && fenceMatch[1]!.startsWith(fence)) fence = undefined;
      continue;
    }
    if (fenceMatch) fence = fenceMatch[1];
    if (rest.trim() === '' && prefix.trim() === '') continue;
    const indent = /^ */.exec(line)![0].length;
    while (open.length > 0 && open[open.length - 1]! > indent) open.pop();
    let quotes = 0;
    for (const token of prefix.matchAll(/ *(>|[-*+]|\d{1,9}[.)]) */g)) {
      if (token[1] === '>') quotes++;
      else open.push(token.index + token[0].length);
    }
    if (open.length + quotes > MAX_MDX_NESTING) {
      return { message: `The document nests more than ${MAX_MDX_NESTING} levels deep here.`, line: i + 1, column: prefix.length + 1, hint: NESTING_HINT };
    }
  }
  return undefined;
}

/**
 * The same limit on the parsed tree, for nesting the text check cannot see (JSX
 * elements on one line); it runs before any recursive step of the pipeline.
 */
export const remarkNestingLimit: Plugin<[], Root> = () => (tree, file) => {
  const stack: { node: { children?: unknown[]; position?: { start: { line: number; column: number } } }; depth: number }[] = [{ node: tree, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    // Two tree levels per nesting level (a list and its item, an element and its paragraph), and a few for the inline content.
    if (depth > MAX_MDX_NESTING * 2 + 4) {
      file.fail(`The document nests more than ${MAX_MDX_NESTING} levels deep here.`, { place: node.position?.start, ruleId: 'nesting-limit', source: 'docsgen' });
    }
    for (const child of node.children ?? []) stack.push({ node: child as (typeof stack)[number]['node'], depth: depth + 1 });
  }
};



/** A stack overflow from a recursive step means nesting beyond what the limits above caught. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /Maximum call stack size exceeded/.test(error.message);
}
