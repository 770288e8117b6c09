/** A table of contents' markup as nested "id" and "parent > id" lines: what a reader sees of its order and nesting. */
export function tocOutline(html: string): string[] {
  const lines: string[] = [];
  const trail: string[] = [];
  for (const m of html.matchAll(/<(ul)[^>]*>|<\/(ul)>|<a href="#([^"]+)" class="toc__link">/g)) {
    if (m[1]) trail.push('');
    else if (m[2]) trail.pop();
    else {
      trail[trail.length - 1] = m[3]!;
      lines.push(trail.join(' > '));
    }
  }
  return lines;
}
