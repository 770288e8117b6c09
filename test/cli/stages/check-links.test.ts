/**
 * The in-memory link check reuses, from one check to the next with the same cache (watch
 * mode), the verdict on pages it found valid, but only while what links point at is the
 * same: a heading removed from another page, a file gone or a route gone makes it check
 * every page again.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig, type SiteConfig } from '../../../cli/config.ts';
import { checkLinks, createLinkCheckCache } from '../../../cli/stages/check-links.ts';
import type { RenderedPage } from '../../../cli/stages/render.ts';
import { makeSite } from '../../helpers/fixtures.ts';
import { createCleanup } from '../../helpers/temp.ts';

function page(route: string, body: string): RenderedPage {
  return {
    route,
    kind: 'doc',
    title: route,
    description: '',
    html: `<!DOCTYPE html><html><body><main>${body}</main></body></html>`,
    sourceFile: `content${route}.mdx`,
    sourceLinks: [],
    indexable: true,
  };
}

async function fails(check: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(check, (error: Error & { errors?: Error[] }) => {
    const text = [error.message, ...(error.errors ?? []).map((e) => e.message)].join('\n');
    assert.match(text, pattern);
    return true;
  });
}

describe('link check across rebuilds', () => {
  const cleanup = createCleanup();
  let config: SiteConfig;

  it('checks an unchanged page again once a target it links to changed', async (t) => {
    t.after(() => cleanup.run());
    config = await loadConfig(await makeSite(cleanup));
    const cache = createLinkCheckCache();
    const linking = page('/docs/a', '<a href="/docs/b#passo">b</a> <a href="/img/logo.svg">logo</a>');
    const target = page('/docs/b', '<h2 id="passo">Passo</h2>');
    const files = new Set(['/img/logo.svg']);
    await checkLinks({ pages: [linking, target], files }, config, cache);

    // The same pages again: nothing to report.
    await checkLinks({ pages: [linking, target], files }, config, cache);
    // The linking page is the very object checked before; its target lost the heading.
    await fails(checkLinks({ pages: [linking, page('/docs/b', '<h2 id="outro">Outro</h2>')], files }, config, cache), /#passo/);
    // Back as it was, then the file it links to is gone: the same set, changed in place.
    await checkLinks({ pages: [linking, target], files }, config, cache);
    files.delete('/img/logo.svg');
    await fails(checkLinks({ pages: [linking, target], files }, config, cache), /\/img\/logo\.svg/);
    files.add('/img/logo.svg');
    // The page it links to is gone.
    await checkLinks({ pages: [linking, target], files }, config, cache);
    await fails(checkLinks({ pages: [linking, page('/docs/c', '<h2 id="passo">Passo</h2>')], files }, config, cache), /\/docs\/b/);
  });
});
