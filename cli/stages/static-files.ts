/**
 * The files of static/ that are published: every file, except names starting with a dot
 * (`.env`, `.secrets.yaml`, an editor's `.swp`), which are published only when the
 * config lists them (`staticDotfiles`, `.well-known/` by default). Symbolic links are
 * resolved: their target's bytes are published when it lies inside the site, and the
 * build fails when it lies elsewhere (see ../source-tree.ts).
 */
import type { SiteConfig } from '../config.ts';
import { DocsgenErrors } from '../errors.ts';
import { listTree } from '../source-tree.ts';

export interface StaticFile {
  /** Output path, posix separators, relative to the output folder. */
  rel: string;
  /** The file to read. */
  real: string;
}

/** Throws DocsgenErrors naming each link that leads outside the site or into a loop. */
export function listStaticFiles(config: SiteConfig): StaticFile[] {
  const allowed = config.staticDotfiles;
  const { files, errors } = listTree(config.dirs.static, {
    root: config.root,
    include: (rel, kind) => isPublished(kind === 'dir' ? `${rel}/` : rel, allowed, kind),
  });
  if (errors.length > 0) throw new DocsgenErrors(`Found ${errors.length} problem${errors.length === 1 ? '' : 's'} in ${config.staticDir}/:`, errors);
  return files.map(({ rel, real }) => ({ rel, real }));
}

/**
 * `rel` ends with '/' for a folder. A folder is entered when it may hold a published
 * file: a listed '.well-known/' or '.well-known/x' opens '.well-known/'.
 */
export function isPublished(rel: string, allowed: readonly string[], kind: 'file' | 'dir' = 'file'): boolean {
  if (!rel.split('/').some((part) => part.startsWith('.'))) return true;
  return allowed.some((entry) => {
    if (entry.endsWith('/')) return rel.startsWith(entry) || (kind === 'dir' && entry.startsWith(rel));
    return rel === entry || (kind === 'dir' && entry.startsWith(rel));
  });
}
