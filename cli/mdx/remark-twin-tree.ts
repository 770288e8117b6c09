/**
 * Keeps a copy of the document's Markdown tree, after the other remark plugins ran
 * (admonitions are components, links are routes), for its Markdown twin. The copy is
 * plain JSON, so it is cached with the compiled code: positions and the JavaScript
 * syntax trees of expressions go, and a component's expression attributes keep the
 * value they denote when that value is a literal (the participants of a diagram).
 */
import type { Root } from 'mdast';
import type { Plugin } from 'unified';

export interface RemarkTwinTreeOptions {
  /** Receives the copy. */
  onTree: (tree: Root) => void;
}

/** Set on an expression attribute whose value is a literal: the value, as JSON. */
export const STATIC_VALUE = 'staticValue';

const remarkTwinTree: Plugin<[RemarkTwinTreeOptions], Root> = (options) => (tree) => {
  options.onTree(copy(tree) as Root);
};

function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (typeof value !== 'object' || value === null) return value;
  const node = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node)) {
    if (key === 'position') continue;
    if (key === 'data') {
      const data = child as { estree?: unknown } | undefined;
      if (node.type === 'mdxJsxAttributeValueExpression' && data?.estree) {
        const literal = staticValue(data.estree);
        if (literal.ok) out.data = { [STATIC_VALUE]: literal.value };
      }
      continue;
    }
    out[key] = copy(child);
  }
  return out;
}

type Evaluated = { ok: true; value: unknown } | { ok: false };
const FAIL: Evaluated = { ok: false };

/** The value of a program made of one literal expression (objects, arrays, strings, numbers), or FAIL. */
function staticValue(program: unknown): Evaluated {
  const body = (program as { body?: { type: string; expression?: unknown }[] }).body;
  const statement = body?.length === 1 ? body[0] : undefined;
  return statement?.type === 'ExpressionStatement' ? evaluate(statement.expression) : FAIL;
}

function evaluate(raw: unknown): Evaluated {
  const node = raw as { type?: string; [key: string]: unknown };
  switch (node?.type) {
    case 'Literal':
      return { ok: true, value: node.value };
    case 'TemplateLiteral': {
      const quasis = node.quasis as { value: { cooked: string } }[];
      return (node.expressions as unknown[]).length === 0 ? { ok: true, value: quasis.map((q) => q.value.cooked).join('') } : FAIL;
    }
    case 'UnaryExpression': {
      const inner = evaluate(node.argument);
      return inner.ok && node.operator === '-' && typeof inner.value === 'number' ? { ok: true, value: -inner.value } : FAIL;
    }
    case 'ArrayExpression': {
      const items: unknown[] = [];
      for (const element of node.elements as unknown[]) {
        const item = evaluate(element);
        if (!item.ok) return FAIL;
        items.push(item.value);
      }
      return { ok: true, value: items };
    }
    case 'ObjectExpression': {
      const object: Record<string, unknown> = {};
      for (const property of node.properties as { type: string; computed?: boolean; key: { type: string; name?: string; value?: unknown }; value: unknown }[]) {
        if (property.type !== 'Property' || property.computed) return FAIL;
        const key = property.key.type === 'Identifier' ? property.key.name : property.key.value;
        const value = evaluate(property.value);
        if (key === undefined || !value.ok) return FAIL;
        object[String(key)] = value.value;
      }
      return { ok: true, value: object };
    }
    default:
      return FAIL;
  }
}

export default remarkTwinTree;
