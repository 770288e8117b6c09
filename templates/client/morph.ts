/**
 * Turns a live element into a copy of another (from a parsed page) by replacing only the
 * subtrees that differ. An edit in watch mode changes a paragraph; replacing the whole
 * page would make the browser style and lay out all of it again, and lose whatever the
 * reader's browser state holds in the parts that did not change.
 *
 * Only pages served by `serve --watch` need it: it is part of the live-reload script,
 * which hands it to the router with each refresh (RefreshDetail), so production pages
 * never download it.
 */

/** What the live-reload script sends with the refresh event: the new HTML and the tools to apply it in place. */
export interface RefreshDetail {
  html?: string;
  morph: typeof morph;
  keepLive: typeof keepLive;
}

export function morph(current: Element, next: Element): void {
  if (current.tagName !== next.tagName || current.childNodes.length !== next.childNodes.length || !sameAttributes(current, next)) {
    current.replaceWith(document.adoptNode(next));
    return;
  }
  const incoming = Array.from(next.childNodes);
  Array.from(current.childNodes).forEach((node, i) => {
    const other = incoming[i]!;
    if (node.isEqualNode(other) && sameTemplates(node, other)) return;
    // A template's content is not among its child nodes: one that differs is replaced whole.
    if (node instanceof Element && other instanceof Element && node.localName !== 'template') morph(node, other);
    else node.replaceWith(document.adoptNode(other));
  });
}

/**
 * isEqualNode() does not look into a <template>'s content (it holds no child nodes), so
 * two trees that differ only in a tab panel not yet shown (<Tabs lazy>) would be equal.
 */
function sameTemplates(a: Node, b: Node): boolean {
  if (a.nodeType !== Node.ELEMENT_NODE || b.nodeType !== Node.ELEMENT_NODE) return true;
  const templates = (e: Element) => (e.localName === 'template' ? [e] : Array.from(e.querySelectorAll('template')));
  const [mine, theirs] = [templates(a as Element), templates(b as Element)];
  // A template's innerHTML is its content's markup.
  return mine.length === theirs.length && mine.every((t, i) => t.innerHTML === theirs[i]!.innerHTML);
}

function sameAttributes(a: Element, b: Element): boolean {
  if (a.attributes.length !== b.attributes.length) return false;
  for (const attribute of Array.from(a.attributes)) {
    if (b.getAttribute(attribute.name) !== attribute.value) return false;
  }
  return true;
}

/**
 * Makes morph() leave `live` as it is: the parsed page gets a copy of it in place of
 * `incoming`, so the two compare equal. For parts the reader changed (open sidebar
 * categories) or a script runs (the search island).
 */
export function keepLive(live: Element, incoming: Element): void {
  incoming.replaceWith(incoming.ownerDocument.importNode(live, true));
}
