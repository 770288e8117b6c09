/**
 * Publishing a checked build: the staging folder takes the place of the output folder.
 *
 * The output folder stays a real folder, not a symbolic link to the latest build: `cp -r
 * dist …` and `rsync -a dist …` would copy a link instead of the site, and `docsgen
 * serve` and nginx resolve their root once, so they would keep serving a folder that the
 * next build deletes. A real folder can be replaced in one step only by exchanging it
 * with the staging folder (Linux's renameat2 with RENAME_EXCHANGE), which Node does not
 * offer; GNU `mv --exchange` (coreutils 9.5 and later) makes that call, and it is used
 * where it works: a reader sees the old site or the new one, never neither. Elsewhere
 * the fallback is two renames (the old folder aside, the new one in), between which the
 * output folder is missing for the time of one system call; a build killed right there
 * is repaired by the next one (recoverInterruptedPublish), which puts the old folder back.
 *
 * Leftovers: the staging folder is removed on Ctrl+C (SIGINT) and SIGTERM while it
 * exists, and a build killed harder (SIGKILL, a power cut) leaves folders whose names
 * carry its process id, which the next build removes once that process is gone.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { keepPreviousOutput, publishedManifest } from './kept-output.ts';

/** Where this process writes the next build of `outDir`: a dot name beside it, never served. */
export function stagingDir(outDir: string): string {
  return path.join(path.dirname(outDir), `.${path.basename(outDir)}-staging-${process.pid}`);
}

function oldDir(outDir: string): string {
  return path.join(path.dirname(outDir), `.${path.basename(outDir)}-old-${process.pid}`);
}

/**
 * Puts the checked staging folder in place of `outDir`; the output it replaces is kept in
 * `cacheDir` for the next build to write into, or removed without a cache (see ./kept-output.ts).
 */
export async function publish(staging: string, outDir: string, options: { cacheDir?: string } = {}): Promise<void> {
  if (!existsSync(outDir)) {
    await rename(staging, outDir);
    await publishedManifest(options.cacheDir);
    return;
  }
  if (await exchange(staging, outDir)) {
    // `staging` now holds the previous output.
    await keepPreviousOutput(staging, options.cacheDir);
    return;
  }
  const old = oldDir(outDir);
  await rm(old, { recursive: true, force: true });
  await rename(outDir, old);
  await rename(staging, outDir);
  await keepPreviousOutput(old, options.cacheDir);
}

/** Swaps two folders in one system call with GNU mv; false where mv or the file system cannot. */
function exchange(a: string, b: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('mv', ['--exchange', '--no-target-directory', '--', a, b], { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

export async function discard(staging: string): Promise<void> {
  await rm(staging, { recursive: true, force: true });
}

/**
 * Removes `dir` when the process is stopped with Ctrl+C or SIGTERM, then lets the signal
 * do what it would have done (other listeners, or the default: the process ends).
 * Call `dispose` once the folder is published or discarded.
 */
export function removeOnSignal(dir: string): { dispose(): void } {
  const onSignal = (signal: NodeJS.Signals) => {
    dispose();
    // Writes already handed to the thread pool may still land while the folder is removed
    // (ENOTEMPTY): try again a few times, briefly, and leave any rest to the next build.
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        rmSync(dir, { recursive: true, force: true });
        break;
      } catch {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
      }
    }
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const dispose = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { dispose };
}

/**
 * Cleans up after builds of `outDir` that were killed: their staging folders go, and the
 * previous output, set aside by a build killed between its two renames, is put back when
 * the output folder is missing. Folders of a build still running (its process exists)
 * are left alone. Returns what it did, for the terminal.
 */
export async function recoverInterruptedPublish(outDir: string): Promise<string[]> {
  const parent = path.dirname(outDir);
  const base = path.basename(outDir);
  const pattern = new RegExp(`^\\.${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(staging|old)-(\\d+)$`);
  const names = await readdir(parent).catch(() => [] as string[]);
  const done: string[] = [];
  // Old outputs first, so one can be restored before the staging folders are counted.
  const found = names
    .map((name) => ({ name, match: pattern.exec(name) }))
    .filter((f): f is { name: string; match: RegExpExecArray } => f.match !== null)
    .map((f) => ({ name: f.name, kind: f.match[1] as 'staging' | 'old', pid: Number(f.match[2]) }))
    .filter((f) => f.pid !== process.pid && !isRunning(f.pid))
    .sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'old' ? -1 : 1));
  for (const leftover of found) {
    const dir = path.join(parent, leftover.name);
    if (leftover.kind === 'old' && !existsSync(outDir)) {
      await rename(dir, outDir);
      done.push(`restored the last published ${base}/ from ${leftover.name}, left by a build that was stopped while publishing`);
    } else {
      await rm(dir, { recursive: true, force: true });
      done.push(`removed ${leftover.name}, left by a build that was stopped`);
    }
  }
  return done;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
