/**
 * The reference policy of API documents. Each document stands alone: it is published for
 * download and loaded by the API reference as is, so a `$ref` to another file or URL is an
 * error. Such references are found in the parsed YAML before the validator runs, and the
 * validator gets a resolver that reads nothing (NoExternalReads in validator.ts), so no
 * file outside the document is ever opened and no URL is ever fetched, whatever the
 * document says (a hostile `$ref` to /etc/passwd, or to a URL that logs who builds the site).
 */
import path from 'node:path';
import { isPlainObject } from '../json.ts';

export interface ExternalRef {
  /** JSON pointer segments of the `$ref` key itself. */
  segments: string[];
  ref: string;
}

/** Example and default values are data, not OpenAPI objects: a "$ref" key inside them is literal. */
const DATA_KEYWORDS = new Set(['example', 'default', 'enum', 'const']);

/** Every `$ref` of the document that does not start with '#', in document order. */
export function findExternalRefs(document: unknown): ExternalRef[] {
  const found: ExternalRef[] = [];
  // An explicit stack, not recursion: a document nested thousands of levels deep must not overflow it.
  const stack: { node: unknown; segments: string[] }[] = [{ node: document, segments: [] }];
  while (stack.length > 0) {
    const { node, segments } = stack.pop()!;
    const children: { node: unknown; segments: string[] }[] = [];
    if (Array.isArray(node)) {
      node.forEach((child, i) => children.push({ node: child, segments: [...segments, String(i)] }));
    } else if (isPlainObject(node)) {
      const ref = node.$ref;
      if (typeof ref === 'string' && !ref.startsWith('#')) found.push({ segments: [...segments, '$ref'], ref });
      for (const [key, child] of Object.entries(node)) {
        if (DATA_KEYWORDS.has(key) || (key === 'examples' && Array.isArray(child))) continue;
        if (key === 'value' && segments[segments.length - 2] === 'examples') continue;
        children.push({ node: child, segments: [...segments, key] });
      }
    }
    // Reversed onto the stack, so they come off in document order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return found;
}

/** What is wrong with one external reference, worded for where it points. */
export function describeExternalRef(ref: string, documentFile: string, root: string): { problem: string; hint: string } {
  const standAlone =
    'Keep each API document in one file: it is published for download and loaded by the API reference as is. Move the referenced object under components and use a local reference (#/components/...).';
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref) && !/^file:/i.test(ref)) {
    return { problem: `'${ref}' is a remote reference; docsgen does not fetch it.`, hint: standAlone };
  }
  const target = path.resolve(path.dirname(documentFile), ref.replace(/^file:(\/\/)?/i, '').split('#')[0] ?? '');
  const inside = !path.relative(root, target).startsWith('..') && !path.isAbsolute(path.relative(root, target));
  return inside
    ? { problem: `'${ref}' points outside this document.`, hint: standAlone }
    : { problem: `'${ref}' points to a file outside the site; docsgen does not read it.`, hint: standAlone };
}
