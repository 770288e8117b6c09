/**
 * Clean builds of the real site, each in a fresh process with no output folder and no
 * compile cache (--no-cache), timed per stage; then one warm build that reuses the cache.
 * Figures are medians of the runs. Nothing is compared with another tool's figure from
 * elsewhere: speed against other generators is measured side by side, in one run, by
 * ../shared/bench/scale.sh.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface BuildBench {
  runs: number;
  totalMs: number;
  /** One more build right after, reusing the compile cache in node_modules/.cache/docsgen. */
  warmTotalMs: number;
  peakRssMb: number;
  stages: { name: string; ms: number }[];
  pages: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function benchBuild(runs = 3): Promise<BuildBench> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'docsgen-bench-'));
  const reports: { totalMs: number; peakRssBytes: number; pages: number; stages: { name: string; ms: number }[] }[] = [];
  let warmTotalMs = 0;
  try {
    for (let i = 0; i < runs; i++) {
      const report = path.join(tmp, `report-${i}.json`);
      const out = path.join(tmp, `dist-${i}`);
      const started = performance.now();
      const result = spawnSync(process.execPath, [path.join(root, 'cli/bin.mjs'), 'build', '--quiet', '--no-cache', '--out', out, '--report', report], { cwd: root, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`build failed:\n${result.stderr}`);
      const parsed = JSON.parse(await readFile(report, 'utf8')) as (typeof reports)[number];
      // Wall time of the whole command, process start and TypeScript loading included.
      parsed.totalMs = performance.now() - started;
      reports.push(parsed);
    }
    const fill = spawnSync(process.execPath, [path.join(root, 'cli/bin.mjs'), 'build', '--quiet', '--out', path.join(tmp, 'fill')], { cwd: root });
    if (fill.status !== 0) throw new Error('build failed');
    const warmStarted = performance.now();
    const warm = spawnSync(process.execPath, [path.join(root, 'cli/bin.mjs'), 'build', '--quiet', '--out', path.join(tmp, 'warm')], { cwd: root });
    if (warm.status !== 0) throw new Error('build failed');
    warmTotalMs = performance.now() - warmStarted;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  const names = reports[0]!.stages.map((s) => s.name);
  const totalMs = median(reports.map((r) => r.totalMs));
  return {
    runs,
    totalMs,
    warmTotalMs,
    peakRssMb: median(reports.map((r) => r.peakRssBytes)) / 1024 / 1024,
    pages: reports[0]!.pages,
    stages: names.map((name) => ({ name, ms: median(reports.map((r) => r.stages.find((s) => s.name === name)?.ms ?? 0)) })),
  };
}

export function formatBuildBench(bench: BuildBench): string {
  const lines = [
    `Clean build of the real site (${bench.pages} pages), median of ${bench.runs} runs in fresh processes:`,
    `  total ${(bench.totalMs / 1000).toFixed(2)} s, peak memory ${bench.peakRssMb.toFixed(0)} MB (no compile cache)`,
    `  warm rebuild reusing the compile cache: ${(bench.warmTotalMs / 1000).toFixed(2)} s (${(bench.totalMs / bench.warmTotalMs).toFixed(1)}× faster than clean)`,
    ...bench.stages.map((s) => `  ${s.name.padEnd(12)} ${s.ms.toFixed(0).padStart(6)} ms`),
  ];
  return lines.join('\n');
}
