/**
 * `npm run bench`: speed and size figures of docsgen on the real site, printed as a
 * table and written to bench/results.json. Machines here are shared and noisy, so these
 * are figures to compare within one run, never pass/fail tests.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchBuild, formatBuildBench } from './build.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version };

const build = await benchBuild(Number(process.env.BENCH_RUNS ?? 3));
results.build = build;
console.log(formatBuildBench(build));

await writeFile(path.join(here, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nWritten to ${path.relative(process.cwd(), path.join(here, 'results.json'))}`);
