/**
 * Stage: when each doc last changed, for "Last updated on" under it. The date of the
 * file's last commit, all files read from one `git log` per build (one process per file
 * costs seconds on a large site); a file git does not know (no repository, git not
 * installed, not committed yet) gets its modification time, as the collect stage found it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/** ISO 8601 date-time (UTC) by source file, relative to the site root, posix. */
export type LastUpdated = ReadonlyMap<string, string>;

const run = promisify(execFile);

/** Each doc's date: its last commit's, else its modification time (`committed` from commitDates()). */
export function lastUpdated(files: readonly { relFile: string; mtimeMs: number }[], committed: ReadonlyMap<string, string>): LastUpdated {
  return new Map(files.map(({ relFile, mtimeMs }) => [relFile, committed.get(relFile) ?? new Date(mtimeMs).toISOString()]));
}

/**
 * Newest commit date of every file under `dirs` from one `git log`, relative to `root`.
 * Empty when there is no repository or no git: the callers fall back to mtimes. Never
 * rejects, so a build can start it first and wait for it only when the docs are known.
 */
export async function commitDates(root: string, dirs: readonly string[]): Promise<Map<string, string>> {
  const dates = new Map<string, string>();
  if (dirs.length === 0 || !mayBeInRepository(root)) return dates;
  let output: string;
  try {
    const args = ['-c', 'core.quotepath=off', 'log', '--format=%x00%cI', '--name-only', '--no-renames', '--relative', '--', ...dirs.map((d) => path.relative(root, d) || '.')];
    output = (await run('git', args, { cwd: root, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' })).stdout;
  } catch {
    return dates;
  }
  // Newest commits come first: a file's first appearance is its last change.
  for (const commit of output.split('\0')) {
    const [date, ...names] = commit.split('\n');
    if (!date) continue;
    const iso = new Date(date).toISOString();
    for (const name of names) if (name && !dates.has(name)) dates.set(name, iso);
  }
  return dates;
}

/**
 * Whether git could find a repository for `root`: a `.git` folder or file in it or a
 * folder above it, or GIT_DIR set. Starting git costs the main thread about 10 ms on a
 * large site's build (Node forks the whole process), every save in watch mode, which a
 * site outside any repository need not pay. Git itself may still refuse what this finds
 * (a ceiling, another file system); then it reports no repository, as before.
 */
function mayBeInRepository(root: string): boolean {
  if (process.env.GIT_DIR) return true;
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return true;
    if (path.dirname(dir) === dir) return false;
  }
}
