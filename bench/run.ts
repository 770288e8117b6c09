/**
 * `npm run bench`: speed and size figures of docsgen on the real site, printed as a
 * table and written to bench/results.json. Machines here are shared and noisy, so these
 * are figures to compare within one run, never pass/fail tests (the deterministic
 * budgets live in test/quality).
 *
 * BENCH_RUNS sets the clean builds (3), LIGHTHOUSE_RUNS the Lighthouse runs per page
 * (3), LOAD_SECONDS the seconds of load per URL (3), BENCH_EDITS the watch-mode saves (7);
 * BENCH_ONLY=build,scale,weight,lighthouse,layout-shift,load,watch runs a subset; BENCH_SCALE the sizes of the
 * generated sites (33,1023,9933 docs).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchBuild, formatBuildBench } from './build.ts';
import { benchLayoutShift, formatLayoutShift } from './layout-shift.ts';
import { benchLighthouse } from './lighthouse.ts';
import { benchLoad } from './load.ts';
import { benchScale, formatScaleBench, SCALE_SIZES } from './scale.ts';
import { formatLighthouse, formatLoad, formatTargets, formatWeight, targetChecks } from './report.ts';
import { buildAndServe, PAGES } from './site.ts';
import { benchWatch, formatWatchBench, LARGE_WATCH_DOCS } from './watch.ts';
import { benchWeight } from './weight.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = new Set((process.env.BENCH_ONLY ?? 'build,scale,weight,lighthouse,layout-shift,load,watch').split(',').map((s) => s.trim()));
const resultsFile = path.join(here, 'results.json');
// A run of some parts (BENCH_ONLY) replaces their figures and keeps the others'.
const earlier = JSON.parse(await readFile(resultsFile, 'utf8').catch(() => '{}')) as Record<string, unknown>;
const results: Record<string, unknown> = { ...earlier, date: new Date().toISOString(), node: process.version };
/** Written after every part, so a part that fails later does not lose the figures measured before it. */
const save = () => writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`);

if (only.has('build')) {
  const build = await benchBuild(Number(process.env.BENCH_RUNS ?? 3));
  results.build = build;
  console.log(formatBuildBench(build));
  await save();
}

if (only.has('scale')) {
  const sizes = process.env.BENCH_SCALE ? process.env.BENCH_SCALE.split(',').map(Number) : SCALE_SIZES;
  const scale = await benchScale(sizes);
  results.scale = scale;
  console.log(`\n${formatScaleBench(scale)}`);
  await save();
}

if (only.has('weight') || only.has('lighthouse') || only.has('layout-shift') || only.has('load')) {
  const site = await buildAndServe();
  try {
    if (only.has('weight')) {
      const weight = await benchWeight(site.url, PAGES);
      results.weight = weight;
      console.log(`\n${formatWeight(weight)}`);
      await save();
    }
    if (only.has('lighthouse')) {
      const lighthouse = await benchLighthouse(site.url, PAGES, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
      results.lighthouse = lighthouse;
      console.log(`\n${formatLighthouse(lighthouse)}`);
      await save();
    }
    if (only.has('layout-shift')) {
      const layoutShift = await benchLayoutShift(site.url, PAGES.filter((p) => p.route.includes('api-reference')));
      results.layoutShift = layoutShift;
      console.log(`\n${formatLayoutShift(layoutShift)}`);
      await save();
    }
    if (only.has('load')) {
      const routerJs = await firstScript(site.url);
      const load = await benchLoad(
        site.url,
        [
          { name: 'home', path: '/' },
          { name: 'doc', path: '/docs/api/pagamento' },
          { name: 'doc (.html alias)', path: '/docs/api/pagamento.html' },
          { name: 'blog post', path: '/blog/2019/05/28/hola' },
          { name: 'api-reference', path: '/api-reference' },
          { name: 'router JS', path: routerJs },
          { name: 'not found', path: '/no/such/page', expectStatus: 404 },
        ],
        { seconds: Number(process.env.LOAD_SECONDS ?? 3), dir: site.dir },
      );
      results.load = load;
      console.log(`\n${formatLoad(load)}`);
      await save();
    }
  } finally {
    await site.stop();
  }
}

if (only.has('watch')) {
  const watch = await benchWatch(Number(process.env.BENCH_EDITS ?? 7));
  results.watch = watch;
  console.log(`\n${formatWatchBench(watch)}`);
  await save();
  const large = await benchWatch(Number(process.env.BENCH_EDITS ?? 7), LARGE_WATCH_DOCS);
  results.watchLarge = large;
  console.log(`\n${formatWatchBench(large)}`);
  await save();
}

const checks = targetChecks(results);
if (checks.length > 0) {
  results.targets = checks;
  console.log(`\n${formatTargets(checks)}`);
}

await save();
console.log(`\nWritten to ${path.relative(process.cwd(), resultsFile)}`);

/** The router module's URL, read from the home page, for the asset row of the load test. */
async function firstScript(baseUrl: string): Promise<string> {
  const html = await (await fetch(new URL('/', baseUrl))).text();
  const src = /<script type="module" src="([^"]+)"/.exec(html)?.[1];
  if (!src) throw new Error('The home page has no <script type="module" src>, so the load test has no router module to request.');
  return src;
}
