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
    // One worker: the error crosses the thread the same way whatever their number, and each worker loads MDX and Shiki (about a CPU second).
    assert.equal(await messageOf(1), alone);
  });

  it('starts workers for as many sources as a build has to compile, not for the size of the site', async (t) => {
    const site = await makeSite(t);
    const docs = [0, 1, 2, 3].map((i) => path.join(site, 'content/docs/guia', `extra-${i}.mdx`));
    const write = (file: string, text: string) => writeFile(file, `---\ntitle: Extra\ndescription: Extra page.\n---\n\n${text}\n`);
    await Promise.all(docs.map((file, i) => write(file, `Texto ${i}.`)));
    let started = 0;
    const count = () => started++;
    process.on('worker', count);
    t.after(() => process.off('worker', count));
    // As watch mode keeps one session; the site has more sources than the pool's threshold.
    const session = createBuildSession({ compileWorkers: 1, compilePoolFrom: 3 });
    t.after(() => disposeBuildSession(session));
    const config = await loadConfig(site);
    const rebuild = () => buildSite(config, { session, cache: false, logger: quiet() });
    await rebuild();
    assert.ok(started > 0, 'the first build compiles every source, in workers');
    started = 0;
    await write(docs[0]!, 'Texto mudado.');
    const one = await rebuild();
    assert.equal(started, 0, 'one changed document is compiled on the main thread');
    assert.ok(one.pages.some((page) => page.html.includes('Texto mudado.')));
    await Promise.all(docs.slice(1).map((file) => write(file, 'Outro texto.')));
    await rebuild();
    assert.ok(started > 0, 'three changed documents, the threshold, go to workers again');
  });
});
