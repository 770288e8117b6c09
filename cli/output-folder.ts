/**
 * Which folder a build may write into. `docsgen build` replaces its output folder as a
 * whole and `serve --watch` deletes from it every file the build does not produce, so a
 * folder holding anything else, the site's sources above all, would be emptied without a
 * word. Such a folder is refused before any work starts: an empty or missing folder is
 * fine, and so is one docsgen wrote, which holds its HEADERS_DIR folder (a build's
 * headers and base URL, or the empty one beside watch mode's placeholder page).
 */
import { readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DocsgenError } from './errors.ts';
import { HEADERS_DIR } from './stages/security-headers.ts';
import { isInside } from './stack-frames.ts';
import { shownPath } from './log.ts';

export interface OutputFolderCheck {
  /** The site folder (holding site.config.ts). */
  root: string;
  /** Folders and files the build reads: none may be inside the output folder, nor hold it. */
  sources: readonly string[];
  /** How the author named the folder, for the fix: '--out' for build, '--dir' for watch. */
  option: string;
}

export function checkOutputFolder(outDir: string, check: OutputFolderCheck): void {
  const shown = (file: string) => (file === process.cwd() ? '.' : shownPath(file, process.cwd()));
  const within = (dir: string, file: string) => file === dir || isInside(dir, file);
  const fix = `A build replaces everything in its output folder. Pass a folder of its own with ${check.option}, such as ${check.option} dist.`;
  if (within(outDir, check.root)) {
    throw new DocsgenError(`The output folder ${shown(outDir)}/ holds the site itself (${shown(check.root)}/): building into it would delete the sources.`, { hint: fix });
  }
  for (const source of check.sources) {
    if (source === outDir) {
      throw new DocsgenError(`The output folder ${shown(outDir)}/ is one the build reads its sources from: building into it would delete them.`, { hint: fix });
    }
    if (within(source, outDir)) {
      throw new DocsgenError(`The output folder ${shown(outDir)}/ is inside ${shown(source)}/, which the build reads: the next build would read this one's output, and this one would replace what is there.`, { hint: fix });
    }
    if (within(outDir, source)) {
      throw new DocsgenError(`The output folder ${shown(outDir)}/ holds ${shown(source)}, which the build reads: building into it would delete it.`, { hint: fix });
    }
  }
  const found = entries(outDir);
  if (found.length === 0 || found.includes(HEADERS_DIR)) return;
  const listed = found.length <= 3 ? found.join(', ') : `${found.slice(0, 3).join(', ')} and ${found.length - 3} more`;
  throw new DocsgenError(`The output folder ${shown(outDir)}/ holds files no docsgen build wrote (${listed}): building into it would delete them.`, {
    hint: `Pass a new or empty folder with ${check.option}, or move those files out first. (A folder docsgen wrote is recognised by its ${HEADERS_DIR}/ folder.)`,
  });
}

/** The names in `dir`, sorted; none when it does not exist (or is not a folder, which the build reports itself). */
function entries(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** Makes `dir` with the mark of a folder docsgen writes, for a folder written before any build is (watch mode's placeholder page). */
export async function makeOutputFolder(dir: string): Promise<void> {
  await mkdir(path.join(dir, HEADERS_DIR), { recursive: true });
}
