/**
 * Local images a document names (`/img/diagram.svg`), resolved to files of the static
 * folder. rehype-image-size.ts measures them while compiling; compile.ts keys the compile
 * cache on their size and time too, so a redrawn image gets its new dimensions although
 * the document's text did not change. Kept apart from the plugin so that computing a
 * cache key never loads the image reader.
 */
import path from 'node:path';
import { signatureOfSync } from '../file-signature.ts';

/** Root-absolute paths ending in an image extension, wherever the source writes them (Markdown, a definition, JSX). */
const IMAGE_PATH = /(?<![\w/.:-])\/(?!\/)[^\s()"'`<>[\]{}]+\.(?:apng|avif|bmp|gif|ico|jpe?g|png|svg|tiff?|webp)\b/gi;

/** The file of the static folder that a root-absolute image URL names, or undefined (an external URL, a path leaving the folder). */
export function staticImageFile(src: string, staticDir: string): string | undefined {
  if (!src.startsWith('/') || src.startsWith('//')) return undefined;
  let pathname: string;
  try {
    pathname = decodeURIComponent(src.replace(/[?#].*$/, ''));
  } catch {
    return undefined;
  }
  const file = path.join(staticDir, pathname);
  return file.startsWith(path.join(staticDir, path.sep)) ? file : undefined;
}

/** The root-absolute image paths a source names, each once, in order. */
export function imageNames(source: string): string[] {
  return [...new Set(source.match(IMAGE_PATH) ?? [])].sort();
}

/** What the images named (see imageNames) are as files: changes when one is replaced, added or removed. */
export function imageSignature(names: readonly string[], staticDir: string | undefined): string {
  if (!staticDir) return '';
  return names
    .map((name) => {
      const file = staticImageFile(name, staticDir);
      return `${name}:${(file && signatureOfSync(file)) ?? '-'}`;
    })
    .join('\n');
}
