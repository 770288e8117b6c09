/**
 * Stage: when each doc last changed, for "Last updated on" under it. The date of the
 * file's last commit, all files read from one `git log` per build (one process per file
 * costs seconds on a large site); a file git does not know (no repository, git not
 * installed, not committed yet) gets its modification time.
 */
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pMap from 'p-map';
import type { SiteConfig } from '../config.ts';

/** ISO 8601 date-time (UTC) by source file, relative to the site root, posix. */
export type LastUpdated = ReadonlyMap<string, string>;

const run = promisify(execFile);
/** Files whose times are asked for at once. */
const STAT_LANES = 16;

export async function lastUpdated(files: readonly { file: string; relFile: string }[], config: SiteConfig): Promise<LastUpdated> {
  const committed = await commitDates(config.root, [...new Set(files.map((f) => path.dirname(f.file)))]);
  // A few files' times asked for at once: one after the other, a thousand uncommitted
  // docs took 40 ms of every save's rebuild in watch mode.
  const found = await pMap(files, async ({ file, relFile }) => [relFile, committed.get(relFile) ?? (await stat(file).then((s) => s.mtime.toISOString(), () => undefined))] as const, {
    concurrency: STAT_LANES,
  });
  const dates = new Map<string, string>();
  for (const [relFile, date] of found) if (date) dates.set(relFile, date);
  return dates;
}

/**
 * Newest commit date of every file under `dirs` from one `git log`, relative to `root`.
 * Empty when there is no repository or no git: the callers fall back to mtimes.
 */
export async function commitDates(root: string, dirs: readonly string[]): Promise<Map<string, string>> {
  const dates = new Map<string, string>();
  if (dirs.length === 0) return dates;
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
