/**
 * Clean builds of the real site, each in a fresh process with no cache, timed per stage.
 * Figures are medians of the runs; ratios compare with the reference builds quoted in the
 * project's issues (measured on machines like this one, not re-measured here).
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
  peakRssMb: number;
  stages: { name: string; ms: number }[];
  pages: number;
  reference: { name: string; seconds: number; ratio: number }[];
}

const REFERENCE_SECONDS = [
  { name: 'Docusaurus 3.7', seconds: 70 },
  { name: 'VitePress', seconds: 19 },
  { name: 'Starlight', seconds: 13 },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function benchBuild(runs = 3): Promise<BuildBench> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'docsgen-bench-'));
  const reports: { totalMs: number; peakRssBytes: number; pages: number; stages: { name: string; ms: number }[] }[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const report = path.join(tmp, `report-${i}.json`);
      const out = path.join(tmp, `dist-${i}`);
      const started = performance.now();
      const result = spawnSync(process.execPath, [path.join(root, 'cli/bin.mjs'), 'build', '--quiet', '--out', out, '--report', report], { cwd: root, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`build failed:\n${result.stderr}`);
      const parsed = JSON.parse(await readFile(report, 'utf8')) as (typeof reports)[number];
      // Wall time of the whole command, process start and TypeScript loading included.
      parsed.totalMs = performance.now() - started;
      reports.push(parsed);
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  const names = reports[0]!.stages.map((s) => s.name);
  const totalMs = median(reports.map((r) => r.totalMs));
  return {
    runs,
    totalMs,
    peakRssMb: median(reports.map((r) => r.peakRssBytes)) / 1024 / 1024,
    pages: reports[0]!.pages,
    stages: names.map((name) => ({ name, ms: median(reports.map((r) => r.stages.find((s) => s.name === name)?.ms ?? 0)) })),
    reference: REFERENCE_SECONDS.map((r) => ({ ...r, ratio: (r.seconds * 1000) / totalMs })),
  };
}

export function formatBuildBench(bench: BuildBench): string {
  const lines = [
    `Clean build of the real site (${bench.pages} pages), median of ${bench.runs} runs in fresh processes:`,
    `  total ${(bench.totalMs / 1000).toFixed(2)} s, peak memory ${bench.peakRssMb.toFixed(0)} MB`,
    ...bench.stages.map((s) => `  ${s.name.padEnd(12)} ${s.ms.toFixed(0).padStart(6)} ms`),
    '  compared with the reference clean builds quoted in the issues:',
    ...bench.reference.map((r) => `    ${r.name.padEnd(16)} ${String(r.seconds).padStart(3)} s  → docsgen is ${r.ratio.toFixed(1)}× faster`),
  ];
  return lines.join('\n');
}
