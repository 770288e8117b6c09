/**
 * Caches belong to the build session that made them: two sessions share nothing, and
 * disposing a session lets go of what it kept.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildSite, createBuildSession, disposeBuildSession } from '../../cli/build.ts';
import { loadConfig, type SiteConfig } from '../../cli/config.ts';
import { createLogger } from '../../cli/log.ts';
import { makeSite } from '../helpers/fixtures.ts';
import { createCleanup } from '../helpers/temp.ts';

const cleanup = createCleanup();

describe('build session caches', () => {
  let site: string;
  let config: SiteConfig;
  before(async () => {
    site = await makeSite(cleanup);
    config = await loadConfig(site);
  });
  after(() => cleanup.run());

  it('fill the session that built, and only that one', async () => {
    const used = createBuildSession();
    const other = createBuildSession();
    const output = await buildSite(config, { session: used, cache: false, logger: createLogger({ level: 'quiet' }) });
    const doc = output.pages.find((p) => p.kind === 'doc')!;
    assert.ok(used.links.anchorsOfPage.has(doc), 'the link check kept the page it read');
    assert.ok(used.searchIndex.recordsOfPage.has(doc), 'the search index kept the records it read');
    assert.ok(used.searchIndex.analyzer, 'the search index kept the analyzer of the site language');
    assert.ok(used.lastRender);
    assert.equal(other.links.anchorsOfPage.has(doc), false);
    assert.equal(other.searchIndex.recordsOfPage.has(doc), false);
    assert.equal(other.searchIndex.analyzer, undefined);
    assert.equal(other.renderCache.minutesByFile.size, 0);
    assert.equal(other.lastRender, undefined);

    await disposeBuildSession(used);
    assert.equal(used.links.anchorsOfPage.has(doc), false);
    assert.equal(used.searchIndex.analyzer, undefined);
    assert.equal(used.lastRender, undefined);
  });

  it('give the same output in a fresh session as in one that built before', async () => {
    const quiet = createLogger({ level: 'quiet' });
    const warm = createBuildSession();
    await buildSite(config, { session: warm, cache: false, logger: quiet });
    const again = await buildSite(config, { session: warm, cache: false, logger: quiet });
    const fresh = await buildSite(config, { session: createBuildSession(), cache: false, logger: quiet });
    assert.deepEqual(
      again.pages.map((p) => [p.route, p.html]),
      fresh.pages.map((p) => [p.route, p.html]),
    );
    const files = (o: typeof again) => o.generated.map((f) => [f.path, Buffer.from(f.contents).toString('base64')]);
    assert.deepEqual(files(again), files(fresh));
  });
});
