/**
 * Build progress: what a long build prints without a terminal (a CI log), on a terminal
 * (one live line), and with --quiet (nothing).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger, LONG_STAGE_ITEMS, progressText, type Progress } from '../../cli/log.ts';

/** A logger with a clock the test moves: `tick` ms per progress report. */
function logger(options: { level?: 'quiet' | 'normal' | 'verbose'; terminal?: boolean }) {
  const lines: string[] = [];
  const statuses: string[] = [];
  let clock = 0;
  const log = createLogger({
    level: options.level ?? 'normal',
    write: (line) => lines.push(line),
    writeError: (line) => lines.push(line),
    status: options.terminal ? (text) => statuses.push(text) : undefined,
    now: () => clock,
  });
  const run = (name: string, total: number, tick = 10) =>
    log.task(name, async (progress) => {
      for (let done = 1; done <= total; done++) {
        clock += tick;
        progress(done, total);
      }
    });
  return { log, lines, statuses, run };
}

describe('build progress', () => {
  it('without a terminal, prints one line per stage and one every tenth of a long stage', async () => {
    const { lines, run } = logger({});
    await run('short', 20);
    await run('compile', 2000);
    assert.deepEqual(lines.filter((l) => l.startsWith('✓')), ['✓ short 200 ms', '✓ compile 20.00 s']);
    const steps = lines.filter((l) => l.startsWith('compile '));
    assert.equal(steps.length, 9, `10 % to 90 %:\n${lines.join('\n')}`);
    assert.equal(steps[0], 'compile 200/2,000 · 18 s left (10 %)');
    assert.ok(!lines.some((l) => l.startsWith('short ')), 'a short stage prints only its end line');
  });

  it('marks a stage that failed with ✗, not ✓', async () => {
    const { log, lines } = logger({});
    await assert.rejects(log.task('openapi', () => Promise.reject(new Error('bad document'))), /bad document/);
    assert.deepEqual(lines, ['✗ openapi 0 ms']);
  });

  it('on a terminal, redraws one live line with the count and the time left, and clears it at the end', async () => {
    const { lines, statuses, run } = logger({ terminal: true });
    await run('compile', LONG_STAGE_ITEMS, 40);
    assert.deepEqual(lines, [], 'nothing is printed as lines: the summary names the stages');
    assert.ok(statuses.length > 10 && statuses.length < LONG_STAGE_ITEMS, `throttled redraws, got ${statuses.length}`);
    assert.ok(statuses.includes('compile 250/500 · 10 s left'), statuses.slice(0, 5).join('\n'));
    assert.equal(statuses.at(-1), '', 'the live line is cleared when the stage ends');
  });

  it('on a terminal, shows stages that run side by side on the one live line, each until it ends', async () => {
    const statuses: string[] = [];
    let clock = 0;
    const log = createLogger({ write: () => undefined, status: (text) => statuses.push(text), now: () => clock });
    let crawled: Progress = () => undefined;
    let endCrawl: () => void = () => undefined;
    const crawl = log.task('verify', (progress) => {
      crawled = progress;
      return new Promise<void>((resolve) => (endCrawl = resolve));
    });
    await log.task('search-index', async (progress) => {
      clock += 1000;
      crawled(100, 1000);
      clock += 1000;
      progress(10, 100);
    });
    assert.deepEqual(statuses, ['verify 100/1,000 · 9 s left', 'verify 100/1,000 · 9 s left | search-index 10/100 · 18 s left', 'verify 100/1,000 · 9 s left']);
    clock += 1000;
    crawled(500, 1000);
    endCrawl();
    await crawl;
    assert.deepEqual(statuses.slice(3), ['verify 500/1,000 · 3 s left', '']);
  });

  it('--quiet prints nothing, with or without a terminal', async () => {
    for (const terminal of [false, true]) {
      const { lines, statuses, run } = logger({ level: 'quiet', terminal });
      await run('compile', 5000);
      assert.deepEqual([lines, statuses], [[], []]);
    }
  });

  it('formats counts with separators and gives no estimate before there is one', () => {
    assert.equal(progressText('compile', 4231, 9933, 28_000), 'compile 4,231/9,933 · 38 s left');
    assert.equal(progressText('render', 0, 100, 0), 'render 0/100');
    assert.equal(progressText('render', 100, 100, 9000), 'render 100/100');
    assert.equal(progressText('verify', 10, 1000, 10_000), 'verify 10/1,000 · 16 min 30 s left');
  });
});
