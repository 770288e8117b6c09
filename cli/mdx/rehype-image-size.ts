/**
 * Gives Markdown images of the site's own files their intrinsic width and height, as
 * Docusaurus does at build time, so a lazily loaded image reserves its room and nothing
 * moves when it arrives (the stylesheet keeps `max-width: 100%; height: auto`, so they
 * still scale to the column). Each such image also links to its file, so a diagram
 * scaled down to a phone's width can be opened at full size; an image that is already
 * inside a link keeps that link. Images given as JSX (`<img>`) are the author's to size.
 */
import { readFileSync } from 'node:fs';
import type { Element, ElementContent, Root } from 'hast';
import { imageSize } from 'image-size';
import type { Plugin } from 'unified';
import { visit } from 'unist-util-visit';
import { staticImageFile } from './image-files.ts';

export interface RehypeImageSizeOptions {
  /** Absolute path of the static folder, which serves `/…` URLs; without it nothing is measured. */
  staticDir?: string;
}

/** Intrinsic size of a static file, or undefined when it is missing or not an image the reader knows. */
function measure(file: string): { width: number; height: number } | undefined {
  try {
    const { width, height } = imageSize(readFileSync(file));
    return width && height ? { width, height } : undefined;
  } catch {
    // A missing file is the link check's to report, with its line; an unreadable one is left unsized.
    return undefined;
  }
}

const rehypeImageSize: Plugin<[RehypeImageSizeOptions?], Root> = (options) => (tree) => {
  const staticDir = options?.staticDir;
  if (!staticDir) return;
  visit(tree, 'element', (node: Element, index, parent) => {
    if (node.tagName !== 'img' || typeof node.properties.src !== 'string') return;
    const file = staticImageFile(node.properties.src, staticDir);
    const size = file && measure(file);
    if (!size) return;
    if (node.properties.width === undefined && node.properties.height === undefined) {
      node.properties.width = size.width;
      node.properties.height = size.height;
    }
    if (!parent || index === undefined || (parent.type === 'element' && parent.tagName === 'a')) return;
    const link: Element = { type: 'element', tagName: 'a', properties: { href: node.properties.src, className: ['markdown-image-link'] }, children: [node] };
    (parent.children as ElementContent[])[index] = link;
  });
};

export default rehypeImageSize;
