/**
 * Compiling in worker threads gives what compiling on the main thread gives: the same
 * pages, the same highlight stylesheet, and for broken MDX the same error, with its file
 * and line.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { buildSite, createBuildSession, disposeBuildSession, type SiteOutput } from '../../../cli/build.ts';
import { loadConfig } from '../../../cli/config.ts';
import { formatAnyError } from '../../../cli/errors.ts';
import { createLogger } from '../../../cli/log.ts';
import { makeSite } from '../../helpers/fixtures.ts';
import { checkNoTempLeftovers } from '../../helpers/temp.ts';

checkNoTempLeftovers();

const quiet = () => createLogger({ level: 'quiet' });

async function buildWith(site: string, workers: number): Promise<SiteOutput> {
  // From the first source, so a small site goes through the pool too.
  const session = createBuildSession({ compileWorkers: workers, compilePoolFrom: 0 });
  try {
    return await buildSite(await loadConfig(site), { session, cache: false, logger: quiet() });
  } finally {
    await disposeBuildSession(session);
  }
}

function files(output: SiteOutput): [string, string][] {
  return [
    ...output.pages.map((p): [string, string] => [p.route, p.html]),
    ...[...output.assets, ...output.generated].map((f): [string, string] => [f.path, Buffer.from(f.contents).toString('base64')]),
  ];
}

describe('compile pool', () => {
  it('writes the same site as the main thread alone', async (t) => {
    const site = await makeSite(t);
    for (let i = 0; i < 6; i++) {
      const code = i % 2 === 0 ? '```ts\nconst total: number = 4590; // centavos\n```' : '```bash {2}\ncurl -s https://example.test\necho feito\n```';
      await writeFile(
        path.join(site, 'content/docs/guia', `extra-${i}.mdx`),
        `---\ntitle: Extra ${i}\ndescription: Extra page ${i}.\n---\n\n## Seção ${i}\n\nVeja o [guia](./primeiro-passo.mdx).\n\n${code}\n`,
      );
    }
    const alone = await buildWith(site, 0);
    const pooled = await buildWith(site, 2);
    assert.ok(alone.pages.some((p) => p.html.includes('sh-')), 'the fixture has highlighted code');
    assert.deepEqual(files(pooled), files(alone));
  });

  it('reports broken MDX with its file and line, as the main thread does', async (t) => {
    const site = await makeSite(t, 'mdx-syntax');
    const messageOf = (workers: number) =>
      buildWith(site, workers).then(
        () => assert.fail('the build should fail'),
        (error: unknown) => formatAnyError(error),
      );
    const alone = await messageOf(0);
    assert.match(alone, /content\/docs\/intro\.mdx:\d+:\d+/);
    assert.equal(await messageOf(2), alone);
  });
});
