/**
 * Lists the files of a source folder (docs, blog, pages, static/) the way the build may
 * use them: a symbolic link is followed when its target lies inside the site, refused
 * when it points elsewhere on the machine (a link to /etc/passwd must not be published),
 * and a link to a folder that contains it (`ln -s . content/docs/loop`) is reported
 * instead of being walked for ever.
 */
import { readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { DocsgenError } from './errors.ts';

export interface TreeFile {
  /** Where the file appears in the folder (through a link, the link's path). */
  file: string;
  /** Path relative to the listed folder, posix separators. */
  rel: string;
  /** The file holding the bytes: `file` itself, or what the links on the way lead to. */
  real: string;
}

export interface ListTreeOptions {
  /** The site root: every link must lead inside it. */
  root: string;
  /** Whether an entry is listed (a file) or entered (a folder), by its path relative to the listed folder. */
  include?: (rel: string, kind: 'file' | 'dir') => boolean;
}

/** Files under `dir`, sorted by path, and what was wrong with the links met on the way. */
export function listTree(dir: string, options: ListTreeOptions): { files: TreeFile[]; errors: DocsgenError[] } {
  const files: TreeFile[] = [];
  const errors: DocsgenError[] = [];
  let top: string;
  try {
    top = realpathSync(dir);
  } catch {
    return { files, errors };
  }
  const realRoot = realpathSync(options.root);
  const shown = (file: string) => {
    const rel = path.relative(options.root, file);
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
  };
  const include = options.include ?? (() => true);

  /** `ancestors`: real paths of the folders on the way down, so a link back to one of them is a loop. */
  const visit = (logical: string, real: string, prefix: string, ancestors: ReadonlySet<string>) => {
    for (const entry of readdirSync(logical, { withFileTypes: true })) {
      const file = path.join(logical, entry.name);
      const rel = prefix + entry.name;
      let target = path.join(real, entry.name);
      let isDir = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        // A link the listing would skip either way is not followed, so a dangling one there
        // (Emacs keeps its lock file `.#x.mdx` as a link to `user@host.pid`) is no error.
        if (!include(rel, 'file') && !include(rel, 'dir')) continue;
        const link = readlinkSync(file);
        try {
          target = realpathSync(file);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          errors.push(
            code === 'ELOOP'
              ? loopError(shown(file), link)
              : new DocsgenError(`${shown(file)} is a symbolic link to ${link}, which does not exist.`, {
                  file: shown(file),
                  hint: 'Point the link at an existing file inside the site, or delete it.',
                }),
          );
          continue;
        }
        if (target !== realRoot && !target.startsWith(realRoot + path.sep)) {
          errors.push(
            new DocsgenError(`${shown(file)} is a symbolic link to ${link} (${target}), outside the site folder.`, {
              file: shown(file),
              hint: 'docsgen publishes only files of the site. Copy the file into the site, or point the link at a file inside the site folder.',
            }),
          );
          continue;
        }
        isDir = statSync(target).isDirectory();
        if (isDir && ancestors.has(target)) {
          errors.push(loopError(shown(file), link));
          continue;
        }
      }
      if (isDir) {
        if (include(rel, 'dir')) visit(file, target, `${rel}/`, new Set([...ancestors, target]));
      } else if ((entry.isFile() || entry.isSymbolicLink()) && include(rel, 'file')) {
        files.push({ file, rel, real: target });
      }
    }
  };
  visit(dir, top, '', new Set([top]));
  // The order a recursive listing sorted by path gives, which the build's output follows.
  files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { files, errors };
}

function loopError(file: string, link: string): DocsgenError {
  return new DocsgenError(`${file} is a symbolic link to ${link}, a folder that contains the link: following it would never end.`, {
    file,
    hint: 'Delete the link, or point it at a folder that does not contain it.',
  });
}
