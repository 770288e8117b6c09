/**
 * The in-place refresh of a rebuilt page (templates/client/morph.ts) is for authors: it
 * ships in the live-reload script that only `serve --watch` injects, never in the
 * scripts of the built site.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { bundleLiveReloadClient } from '../../../cli/watch/live.ts';
import { builtSite } from '../../helpers/site.ts';

/** morph()'s comparison of nodes: nothing else of the client calls it, and minifying keeps the name. */
const MORPH_MARK = 'isEqualNode';

describe('the in-place refresh lives in the live-reload chunk', () => {
  let dist: string;
  before(async () => {
    dist = await builtSite();
  });

  it('is in the live-reload script', async () => {
    assert.ok((await bundleLiveReloadClient()).includes(MORPH_MARK), 'the live-reload script carries morph()');
  });

  it('is in no script of the built site', async () => {
    const scripts = (await readdir(path.join(dist, 'assets'), { recursive: true })).filter((file) => file.endsWith('.js'));
    assert.ok(scripts.some((file) => /^main-/.test(path.basename(file))), 'the built site has its router module');
    const carrying: string[] = [];
    for (const file of scripts) if ((await readFile(path.join(dist, 'assets', file), 'utf8')).includes(MORPH_MARK)) carrying.push(file);
    assert.deepEqual(carrying, [], 'production scripts carry morph()');
  });
});
