/**
 * llms.txt and llms-full.txt (https://llmstxt.org): the site's title as H1, a one-line
 * summary as a quote, then H2 sections of `- [name](url): notes` lines; the full file
 * is the twins themselves, one after the other.
 */
import type { RootContent } from 'mdast';
import { bulletList, link, writeMarkdown } from './write-markdown.ts';

export interface LlmsSection {
  title: string;
  links: { title: string; url: string; description: string }[];
}

export function llmsTxt(input: { title: string; summary: string; sections: readonly LlmsSection[] }): string {
  const children: RootContent[] = [{ type: 'heading', depth: 1, children: [{ type: 'text', value: input.title }] }];
  if (input.summary) children.push({ type: 'blockquote', children: [{ type: 'paragraph', children: [{ type: 'text', value: input.summary }] }] });
  for (const section of input.sections) {
    children.push({ type: 'heading', depth: 2, children: [{ type: 'text', value: section.title }] });
    children.push(
      bulletList(
        section.links.map((l) => [
          link(l.url, l.title),
          ...(l.description ? [{ type: 'text' as const, value: `: ${l.description.replace(/\s+/g, ' ').trim()}` }] : []),
        ]),
      ),
    );
  }
  return writeMarkdown({ type: 'root', children });
}

/**
 * Every twin, one after the other, as UTF-8. Encoded twin by twin into one buffer: joined
 * first, the text of a 10,000-doc site was a string of tens of megabytes (twice that in
 * UTF-16) held next to its encoded copy.
 */
export function llmsFullTxt(twins: readonly string[]): Uint8Array {
  const parts = twins.map((t) => t.trimEnd());
  const separator = '\n\n';
  const bytes = parts.reduce((sum, part) => sum + Buffer.byteLength(part), 0) + separator.length * Math.max(0, parts.length - 1) + 1;
  const out = new Uint8Array(bytes);
  const encoder = new TextEncoder();
  let at = 0;
  parts.forEach((part, i) => {
    if (i > 0) at += encoder.encodeInto(separator, out.subarray(at)).written;
    at += encoder.encodeInto(part, out.subarray(at)).written;
  });
  encoder.encodeInto('\n', out.subarray(at));
  return out;
}
