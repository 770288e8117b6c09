/**
 * What watch mode tells after a build, without a server or a browser: the overlay
 * payload and the terminal text of a failed build (with the lines of the file at fault),
 * the overlay cleared once a build succeeds, and the one-line summary of what changed.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DocsgenError, DocsgenErrors } from '../../../cli/errors.ts';
import { createLogger } from '../../../cli/log.ts';
import type { LiveMessage, OverlayPayload } from '../../../cli/watch/live.ts';
import { createErrorReporter, describeBatch, explain, summary } from '../../../cli/watch/report.ts';
import { checkNoTempLeftovers, tempDir } from '../../helpers/temp.ts';

checkNoTempLeftovers();

function fakeLive() {
  const sent: LiveMessage[] = [];
  let overlay: OverlayPayload | undefined;
  return {
    sent,
    overlay: () => overlay,
    live: { send: (message: LiveMessage) => sent.push(message), setErrors: (payload: OverlayPayload | undefined) => (overlay = payload) },
  };
}

describe('watch reports', () => {
  it('shows a failed build in the terminal and the overlay, with the lines of the file at fault, until a build succeeds', async (t) => {
    const root = await tempDir(t, 'report');
    await mkdir(path.join(root, 'content/docs'), { recursive: true });
    await writeFile(path.join(root, 'content/docs/a.mdx'), 'one\ntwo\nsee [x](/nowhere)\nfour\n');
    const lines: string[] = [];
    const logger = createLogger({ level: 'normal', write: (l) => lines.push(l), writeError: (l) => lines.push(l) });
    const { live, sent, overlay } = fakeLive();
    const reporter = createErrorReporter({ root, logger, live });
    const error = new DocsgenErrors('Found 1 broken link:', [new DocsgenError('Broken link to /nowhere.', { file: 'content/docs/a.mdx', line: 3, column: 5, hint: 'Fix the link.' })]);

    await reporter.failed(error, { batch: new Set([path.join(root, 'content/docs/a.mdx')]), ms: 12, timings: [] }, false);
    assert.equal(reporter.failing, true);
    const payload = overlay();
    assert.equal(payload?.summary, 'Found 1 broken link:');
    assert.equal(payload?.errors[0]?.location, 'content/docs/a.mdx:3:5');
    assert.equal(payload?.noGoodBuild, undefined, 'a last good build is served under the overlay');
    assert.equal(payload?.errors[0]?.excerpt, '  1 | one\n  2 | two\n> 3 | see [x](/nowhere)\n    |     ^\n  4 | four\n  5 | ');
    assert.deepEqual(sent.map((m) => m.type), ['build-error']);
    const text = lines.join('');
    assert.match(text, /content\/docs\/a\.mdx → build failed in 12 ms; still serving the last good build\./);
    assert.match(text, /content\/docs\/a\.mdx:3:5 {2}Broken link to \/nowhere\.\n {2}1 \| one/);

    assert.equal(reporter.succeeded(), true, 'the build fixed the error');
    assert.equal(overlay(), undefined);
    assert.deepEqual(sent.map((m) => m.type), ['build-error', 'ok']);
    assert.equal(reporter.succeeded(), false);
    assert.deepEqual(sent.map((m) => m.type), ['build-error', 'ok'], 'no second ok');
  });

  it('says a first build failed over a placeholder page, in the terminal and in the overlay', async (t) => {
    const root = await tempDir(t, 'report');
    const lines: string[] = [];
    const logger = createLogger({ level: 'normal', write: (l) => lines.push(l), writeError: (l) => lines.push(l) });
    const { live, overlay } = fakeLive();
    const reporter = createErrorReporter({ root, logger, live });
    await reporter.failed(new DocsgenError('No docs.'), { batch: new Set(), ms: 3, timings: [] }, true);
    assert.match(lines.join(''), /first build → build failed in 3 ms; serving a placeholder page with the error until it is fixed\./);
    assert.equal(overlay()?.noGoodBuild, true, 'the overlay must not call the placeholder the last good build');
  });

  it('reports a bug in docsgen as one, with its stack', async () => {
    const { text, payload } = await explain(new TypeError('x is undefined'), process.cwd());
    assert.match(text, /^Unexpected error in docsgen \(please report it\):\nTypeError: x is undefined/);
    assert.match(payload.errors[0]?.message ?? '', /^Unexpected error in docsgen \(please report it\): x is undefined$/);
    assert.match(payload.errors[0]?.excerpt ?? '', /at /);
  });

  it('sums up what a build changed', () => {
    const base = { written: [] as string[], deleted: [] as string[], routes: [] as string[], reloadAll: false };
    assert.equal(summary(base), 'no output changed');
    assert.equal(summary({ ...base, written: ['docs/a.html', 'docs/a/index.html'], routes: ['/docs/a'] }), 'page /docs/a updated');
    assert.equal(
      summary({ ...base, written: ['docs/a.html'], deleted: ['docs/b.html', 'docs/b/index.html'], routes: ['/docs/a', '/docs/b'] }),
      'page /docs/a updated; /docs/b removed',
    );
    assert.equal(
      summary({ ...base, written: ['assets/styles-NEW.css'], deleted: ['assets/styles-OLD.css'], cssSwap: { '/assets/styles-OLD.css': '/assets/styles-NEW.css' } }),
      'stylesheet swapped without a reload (/assets/styles-NEW.css)',
    );
    assert.equal(summary({ ...base, written: ['sitemap.xml'] }), '1 file updated');
    assert.equal(summary({ ...base, written: ['sitemap.xml', 'blog/rss.xml'] }), '2 files updated');
    assert.equal(describeBatch(new Set(['/site/content/b.mdx', '/site/content/a.mdx']), '/site'), 'content/a.mdx, content/b.mdx');
    assert.equal(describeBatch(new Set(), '/site'), 'first build');
  });
});
