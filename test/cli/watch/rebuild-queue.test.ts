/**
 * The rebuild queue on its own, with a stand-in build: saves in a row make one build, a
 * save during a build makes exactly one more, a save the file watcher missed is caught, a
 * build shows its result only once its files were quiet and unchanged since it read them,
 * and nothing is built once the queue is closed.
 */
import assert from 'node:assert/strict';
import { statSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createRebuildQueue, type RebuildQueueOptions } from '../../../cli/watch/rebuild-queue.ts';
import { checkNoTempLeftovers, tempDir } from '../../helpers/temp.ts';
import { waitFor } from '../../helpers/wait.ts';

checkNoTempLeftovers();

/** A queue whose builds record their batches; `gate`, when set, holds a build until it resolves. */
function recordingQueue(extra: Partial<RebuildQueueOptions> & { batches?: string[][] } = {}) {
  const batches: string[][] = extra.batches ?? [];
  let gate: Promise<void> | undefined;
  const queue = createRebuildQueue({
    debounceMs: 5,
    settleMs: 1,
    build: async (batch) => {
      batches.push([...batch].sort());
      await gate;
    },
    ...extra,
  });
  return {
    queue,
    batches,
    hold() {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

describe('rebuild queue', () => {
  it('makes one build of several saves in a row', async (t) => {
    const dir = await tempDir(t, 'queue');
    const files = ['a.mdx', 'b.mdx', 'c.mdx'].map((name) => path.join(dir, name));
    for (const file of files) await writeFile(file, 'x');
    const { queue, batches } = recordingQueue();
    t.after(() => queue.close());
    for (const file of [...files, ...files]) queue.modified(file, statSync(file));
    await queue.idle();
    assert.deepEqual(batches, [files.sort()]);
  });

  it('turns the saves made during a build into exactly one more build', async (t) => {
    const dir = await tempDir(t, 'queue');
    const [a, b, c] = ['a.mdx', 'b.mdx', 'c.mdx'].map((name) => path.join(dir, name));
    for (const file of [a!, b!, c!]) await writeFile(file, 'x');
    const { queue, batches, hold } = recordingQueue();
    t.after(() => queue.close());
    const release = hold();
    queue.added(a!);
    await waitFor('the first build to start', () => batches.length === 1);
    queue.modified(b!, statSync(b!));
    queue.added(c!);
    queue.modified(b!, statSync(b!));
    assert.equal(queue.waiting, 2);
    release();
    await queue.idle();
    assert.deepEqual(batches, [[a], [b, c].sort()]);
  });

  it('builds a save that the file watcher did not report', async (t) => {
    const dir = await tempDir(t, 'queue');
    const file = path.join(dir, 'a.mdx');
    await writeFile(file, 'first');
    const batches: string[][] = [];
    const { queue } = recordingQueue({
      batches,
      build: async (batch) => {
        batches.push([...batch]);
        // Saved again once the build took the file, and never reported (chokidar drops a change this soon after one).
        if (batches.length === 1) writeFileSync(file, 'second, longer');
      },
    });
    t.after(() => queue.close());
    queue.modified(file, statSync(file));
    await waitFor('a second build', () => batches.length === 2);
    await queue.idle();
    assert.deepEqual(batches, [[file], [file]]);
  });

  it('has a build show nothing when its file changed after it read it, and builds the file again', async (t) => {
    const dir = await tempDir(t, 'queue');
    const file = path.join(dir, 'a.mdx');
    await writeFile(file, 'first part');
    const answers: boolean[] = [];
    const { queue, batches } = recordingQueue({
      build: async (batch, _since, settled) => {
        batches.push([...batch]);
        // The rest of the save lands while the first build runs, unreported (as chokidar drops it).
        if (batches.length === 1) writeFileSync(file, 'first part, and the rest');
        answers.push(await settled());
      },
    });
    t.after(() => queue.close());
    queue.modified(file, statSync(file));
    await waitFor('a second build', () => batches.length === 2);
    await queue.idle();
    assert.deepEqual(answers, [false, true], 'the first build may not show its result, the second may');
    assert.equal(batches.length, 2);
  });

  it('has a build wait, before it shows anything, until its files were quiet for the settle time', async (t) => {
    const dir = await tempDir(t, 'queue');
    const file = path.join(dir, 'a.mdx');
    const SETTLE_MS = 300;
    await writeFile(file, 'x');
    const waited: number[] = [];
    const { queue } = recordingQueue({
      settleMs: SETTLE_MS,
      build: async (_batch, _since, settled) => {
        const { mtimeMs } = statSync(file);
        assert.equal(await settled(), true);
        waited.push(Date.now() - mtimeMs);
      },
    });
    t.after(() => queue.close());
    queue.modified(file, statSync(file));
    await queue.idle();
    assert.equal(waited.length, 1);
    // Counted from the file's modification time, as the queue counts it.
    assert.ok(waited[0]! >= SETTLE_MS, `the build was told to go ${waited[0]} ms after the save, before ${SETTLE_MS} ms of quiet`);
  });

  it('tells about the first save of a burst, to start reading it early', async (t) => {
    const dir = await tempDir(t, 'queue');
    const file = path.join(dir, 'a.mdx');
    await writeFile(file, 'x');
    const first: string[] = [];
    const changes: string[] = [];
    const { queue } = recordingQueue({ onFirstSave: (f) => first.push(f), onChange: (f) => changes.push(f) });
    t.after(() => queue.close());
    queue.modified(file, statSync(file));
    queue.modified(file, statSync(file));
    await queue.idle();
    assert.deepEqual(first, [file]);
    assert.deepEqual(changes, [file, file]);
  });

  it('lets changes wait for work run as a build, and builds nothing once closed', async (t) => {
    const dir = await tempDir(t, 'queue');
    const file = path.join(dir, 'a.mdx');
    await writeFile(file, 'x');
    const { queue, batches } = recordingQueue();
    let finishFirst!: () => void;
    queue.run(() => new Promise<void>((resolve) => (finishFirst = resolve)));
    queue.added(file);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(batches, [], 'no build while the first one runs');
    finishFirst();
    await queue.idle();
    assert.deepEqual(batches, [[file]]);

    await queue.close();
    queue.added(file);
    queue.modified(file, statSync(file));
    await queue.idle();
    assert.equal(queue.waiting, 0);
    assert.deepEqual(batches, [[file]]);
  });
});
