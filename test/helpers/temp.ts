/**
 * Temporary folders for tests, removed by the test that made them even when it fails.
 * Each name carries the test process's id, so a test file can check at its end that it
 * left nothing behind without being confused by files that run beside it.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';

/** What can run clean-up when it ends: a test's context (`t`), or a suite's hooks. */
export interface CleanupOwner {
  after(fn: () => Promise<void> | void): void;
}

const PREFIX = 'docsgen-';
const ownMarker = () => `-p${process.pid}-`;

/** A fresh folder under the system's temporary folder, removed when `owner` ends. */
export async function tempDir(owner: CleanupOwner, label: string): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), `${PREFIX}${label}${ownMarker()}`)));
  owner.after(() => removeDir(dir));
  return dir;
}

export async function removeDir(dir: string): Promise<void> {
  // A server or a child build may still be closing a file in it: retry briefly, as rm itself can.
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
}

/** Temporary entries made by this test process (see tempDir) that still exist. */
export function ownTempEntries(): string[] {
  return readdirSync(os.tmpdir()).filter((name) => name.startsWith(PREFIX) && name.includes(ownMarker()));
}

/**
 * Call once at the top of a test file: after its last test, fails if a temporary folder
 * the file made is still there.
 */
export function checkNoTempLeftovers(): void {
  after(() => {
    assert.deepEqual(ownTempEntries(), [], 'a test left temporary folders behind');
  });
}

/**
 * For suites that make their folders in before(): collects the clean-up, which the
 * suite's after() runs with `run()`, in reverse order of creation.
 */
export function createCleanup(): CleanupOwner & { run(): Promise<void> } {
  const tasks: (() => Promise<void> | void)[] = [];
  return {
    after: (fn) => void tasks.push(fn),
    async run() {
      for (const task of tasks.splice(0).reverse()) await task();
    },
  };
}
