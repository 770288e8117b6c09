/**
 * Publishing: a build stopped with Ctrl+C or SIGTERM while it writes or verifies leaves
 * no staging folder and the last good output untouched; the leftovers of a build killed
 * harder are cleaned up, or put back, by the next one.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { publish, recoverInterruptedPublish } from '../../../cli/stages/publish.ts';
import { makeSite } from '../../helpers/fixtures.ts';
import { repoRoot } from '../../helpers/site.ts';
import { checkNoTempLeftovers, tempDir } from '../../helpers/temp.ts';
import { waitFor } from '../../helpers/wait.ts';

checkNoTempLeftovers();

const PREVIOUS = '<!DOCTYPE html><title>previous good build</title>';

/** The id of a process that has ended. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  assert.ok(pid);
  return pid;
}

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
}

describe('publishing a build', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`a build stopped with ${signal} while it writes or verifies removes its staging folder and keeps dist/`, async (t) => {
      const dir = await makeSite(t);
      // An earlier build's output: it holds the folder that marks it as docsgen's.
      await writeFiles(dir, { 'dist/index.html': PREVIOUS, 'dist/.docsgen/base-url.json': '{"baseUrl":"/"}\n' });
      const child = spawn(process.execPath, [path.join(repoRoot, 'cli/bin.mjs'), 'build', '--quiet', '--no-cache'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, sig) => resolve({ code, signal: sig })));
      t.after(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      });
      const staging = `.dist-staging-${child.pid}`;
      await waitFor(`${staging} to appear`, () => existsSync(path.join(dir, staging)) || child.exitCode !== null, 120_000);
      assert.equal(child.exitCode, null, `the build ended before it could be stopped:\n${output}`);
      child.kill(signal);
      const end = await exited;
      assert.equal(end.signal, signal, `the build ends as the signal asks (exit ${end.code})\n${output}`);
      assert.deepEqual((await readdir(dir)).filter((name) => name.startsWith('.dist-')), [], 'no staging folder is left behind');
      assert.equal(await readFile(path.join(dir, 'dist/index.html'), 'utf8'), PREVIOUS, 'the last good dist/ is untouched');
    });
  }

  it('the next build removes the staging folder of a killed build and puts back an output set aside', async (t) => {
    const parent = await tempDir(t, 'publish');
    const outDir = path.join(parent, 'dist');
    const dead = deadPid();
    await writeFiles(parent, {
      [`.dist-old-${dead}/index.html`]: PREVIOUS,
      [`.dist-staging-${dead}/index.html`]: 'half-written',
      // A build that is still running (this process's parent) keeps its folder.
      [`.dist-staging-${process.ppid}/index.html`]: 'in progress',
    });
    const notes = await recoverInterruptedPublish(outDir);
    assert.equal(await readFile(path.join(outDir, 'index.html'), 'utf8'), PREVIOUS, 'the last published output is back');
    assert.deepEqual(readdirSync(parent).sort(), [`.dist-staging-${process.ppid}`, 'dist']);
    assert.equal(notes.length, 2);
    assert.match(notes.join('\n'), new RegExp(`restored the last published dist/ from \\.dist-old-${dead}`));
  });

  it('publish() exchanges the folders in one step where mv --exchange works, and removes the old output', async (t) => {
    const parent = await tempDir(t, 'publish');
    const bin = await tempDir(t, 'publish-bin');
    // Stands in for GNU mv 9.5+: records the call, then swaps the two folders.
    await writeFile(
      path.join(bin, 'mv'),
      `#!/bin/sh\n[ "$1 $2 $3" = "--exchange --no-target-directory --" ] || exit 1\necho "$4 $5" > "${bin}/called"\n/bin/mv "$4" "$4.swap" && /bin/mv "$5" "$4" && /bin/mv "$4.swap" "$5"\n`,
      { mode: 0o755 },
    );
    const outDir = path.join(parent, 'dist');
    await writeFiles(parent, { 'dist/index.html': PREVIOUS, 'next/index.html': 'new' });
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${savedPath ?? ''}`;
    try {
      await publish(path.join(parent, 'next'), outDir);
    } finally {
      process.env.PATH = savedPath;
    }
    assert.equal(await readFile(path.join(bin, 'called'), 'utf8'), `${path.join(parent, 'next')} ${outDir}\n`);
    assert.deepEqual(readdirSync(parent), ['dist']);
    assert.equal(await readFile(path.join(outDir, 'index.html'), 'utf8'), 'new');
  });

  it('publish() replaces the whole output folder and leaves nothing beside it', async (t) => {
    const parent = await tempDir(t, 'publish');
    const outDir = path.join(parent, 'dist');
    await writeFiles(parent, { 'dist/index.html': PREVIOUS, 'dist/gone.html': 'stale', 'next/index.html': 'new' });
    await publish(path.join(parent, 'next'), outDir);
    assert.deepEqual(readdirSync(parent), ['dist']);
    assert.deepEqual(readdirSync(outDir), ['index.html']);
    assert.equal(await readFile(path.join(outDir, 'index.html'), 'utf8'), 'new');
  });
});
