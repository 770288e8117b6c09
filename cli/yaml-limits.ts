/**
 * Resource limits for the YAML docsgen reads (front matter, API documents). A few
 * hundred bytes of aliases can expand to gigabytes ("billion laughs"), and nesting
 * thousands of levels deep overflows the stack of every recursive reader after the
 * parser: both are refused up front, with the position and a fix, instead of crashing.
 */
import { isAlias, isMap, isPair, isSeq, visit, type Document, type Node } from 'yaml';

/** Aliases (`*name`) one document may use; real documents use a handful. */
export const MAX_YAML_ALIASES = 100;

export interface YamlLimitProblem {
  /** What the document does, to follow its name: "uses aliases ...". */
  message: string;
  /** Character offset in the YAML text. */
  offset: number;
  hint: string;
}

/** The document as plain data, or the limit it breaks and where. */
export function yamlToJs(doc: Document.Parsed, maxDepth: number): { ok: true; value: unknown } | { ok: false; problem: YamlLimitProblem } {
  const tooDeep = firstNodeDeeperThan(doc, maxDepth);
  if (tooDeep) {
    return {
      ok: false,
      problem: {
        message: `nests more than ${maxDepth} levels deep.`,
        offset: tooDeep.range?.[0] ?? 0,
        hint: `docsgen reads at most ${maxDepth} levels of nested mappings and lists; flatten the structure (an OpenAPI schema can move a nested object under components and $ref it).`,
      },
    };
  }
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }) };
  } catch (error) {
    // yaml throws a ReferenceError when expanding the aliases would exceed maxAliasCount.
    if (!(error instanceof ReferenceError)) throw error;
    return {
      ok: false,
      problem: {
        message: `uses YAML aliases more than ${MAX_YAML_ALIASES} times once expanded.`,
        offset: firstAliasOffset(doc),
        hint: 'Write the values out instead of repeating them with anchors and aliases (&name, *name); aliases of aliases multiply, and docsgen refuses documents that would expand that much.',
      },
    };
  }
}

/** The parser's own message, except for the stack overflow it reports for extreme nesting. */
export function yamlErrorMessage(message: string): string {
  const first = message.split('\n')[0] ?? message;
  return /Maximum call stack size exceeded/.test(first) ? 'it nests too deeply to be read (thousands of levels)' : first;
}

/**
 * One error per position, and one stack overflow per document: one syntax slip often
 * yields several errors at the same spot, and the first names it best.
 */
export function distinctYamlErrors<E extends { pos: [number, number]; message: string }>(errors: readonly E[]): E[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = /Maximum call stack size exceeded/.test(e.message) ? 'stack' : String(e.pos[0]);
    return !seen.has(key) && Boolean(seen.add(key));
  });
}

/** Walks without recursion, so no depth of nesting can overflow the stack here. */
function firstNodeDeeperThan(doc: Document.Parsed, maxDepth: number): Node | undefined {
  const stack: { node: unknown; depth: number }[] = [{ node: doc.contents, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth >= maxDepth) return node;
    for (const item of node.items) {
      if (isPair(item)) {
        stack.push({ node: item.key, depth: depth + 1 });
        stack.push({ node: item.value, depth: depth + 1 });
      } else {
        stack.push({ node: item, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

function firstAliasOffset(doc: Document.Parsed): number {
  let offset = 0;
  visit(doc, {
    Alias(_, node) {
      if (isAlias(node)) offset = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  return offset;
}
