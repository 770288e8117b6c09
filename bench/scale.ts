/**
 * Builds of generated sites (33, 1,023 and 9,933 docs by default, as the side-by-side
 * comparison with Starlight uses): for each, a clean build of a fresh site (nothing
 * compiled yet, as a first build or CI has it), then one that reuses the compile cache
 * the first one wrote, then one more, which also finds the output the second replaced
 * kept in the cache and writes into it only what changed (here nothing): the build an
 * author runs again and again. Each in a fresh process, with the time of every stage and
 * the peak memory. BENCH_SCALE=33,1023 picks the sizes.
 */
import { spawnSync } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSite } from '../test/helpers/generated-site.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const SCALE_SIZES = [33, 1023, 9933];

interface BuildReport {
  totalMs: number;
  peakRssBytes: number;
  pages: number;
  files: number;
  bytes: number;
  stages: { name: string; ms: number }[];
}

export interface ScaleRun {
  docs: number;
  pages: number;
  files: number;
  bytes: number;
  /** Wall time of the command, process start included. */
  cleanMs: number;
  cleanPeakRssMb: number;
  stages: { name: string; ms: number }[];
  warmMs: number;
  /** The stages of the build that reuses the compile cache. */
  warmStages?: { name: string; ms: number }[];
  warmPeakRssMb: number;
  /** The build after that one, into the kept output. */
  keptMs?: number;
  keptStages?: { name: string; ms: number }[];
  keptPeakRssMb?: number;
}

function buildOnce(dir: string, extra: string[], reportFile: string): { wallMs: number } {
  const started = performance.now();
  const result = spawnSync(process.execPath, [path.join(root, 'cli/bin.mjs'), 'build', '--quiet', '--out', 'dist', '--report', reportFile, ...extra], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`the build of the generated site failed:\n${result.stderr}`);
  return { wallMs: performance.now() - started };
}

export async function benchScale(sizes = SCALE_SIZES): Promise<ScaleRun[]> {
  const runs: ScaleRun[] = [];
  for (const docs of sizes) {
    const site = await generateSite(docs);
    try {
      const cleanReport = path.join(site.dir, 'clean.json');
      const clean = buildOnce(site.dir, [], cleanReport);
      const report = JSON.parse(await readFile(cleanReport, 'utf8')) as BuildReport;
      const warmReport = path.join(site.dir, 'warm.json');
      const warm = buildOnce(site.dir, [], warmReport);
      const warmParsed = JSON.parse(await readFile(warmReport, 'utf8')) as BuildReport;
      const keptReport = path.join(site.dir, 'kept.json');
      const kept = buildOnce(site.dir, [], keptReport);
      const keptParsed = JSON.parse(await readFile(keptReport, 'utf8')) as BuildReport;
      runs.push({
        docs,
        pages: report.pages,
        files: report.files,
        bytes: report.bytes,
        cleanMs: clean.wallMs,
        cleanPeakRssMb: report.peakRssBytes / 1024 / 1024,
        stages: report.stages.map((s) => ({ name: s.name, ms: s.ms })),
        warmMs: warm.wallMs,
        warmStages: warmParsed.stages.map((s) => ({ name: s.name, ms: s.ms })),
        warmPeakRssMb: warmParsed.peakRssBytes / 1024 / 1024,
        keptMs: kept.wallMs,
        keptStages: keptParsed.stages.map((s) => ({ name: s.name, ms: s.ms })),
        keptPeakRssMb: keptParsed.peakRssBytes / 1024 / 1024,
      });
    } finally {
      await rm(site.dir, { recursive: true, force: true });
    }
  }
  return runs;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function formatScaleBench(runs: readonly ScaleRun[]): string {
  const names = [...new Set(runs.flatMap((r) => r.stages.map((s) => s.name)))];
  const header = ['', ...runs.map((r) => `${r.docs.toLocaleString('en-US')} docs`)];
  const stageTime = (stages: ScaleRun['stages'] | undefined, name: string) => {
    const stage = stages?.find((s) => s.name === name);
    return stage ? seconds(stage.ms) : '–';
  };
  const rows: string[][] = [
    ['clean build', ...runs.map((r) => `${seconds(r.cleanMs)}, ${r.cleanPeakRssMb.toFixed(0)} MB`)],
    ['build reusing the compile cache', ...runs.map((r) => `${seconds(r.warmMs)}, ${r.warmPeakRssMb.toFixed(0)} MB`)],
    ['again, into the kept output', ...runs.map((r) => (r.keptMs === undefined ? '–' : `${seconds(r.keptMs)}, ${r.keptPeakRssMb!.toFixed(0)} MB`))],
    ['output', ...runs.map((r) => `${r.files.toLocaleString('en-US')} files, ${(r.bytes / 1024 / 1024).toFixed(0)} MB`)],
    ...names.map((name) => [`  ${name}`, ...runs.map((r) => `${stageTime(r.stages, name)} · ${stageTime(r.warmStages, name)} · ${stageTime(r.keptStages, name)}`)]),
  ];
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return ['Generated sites (one run each, fresh processes; stages: clean · reusing the compile cache · again, into the kept output):', line(header), ...rows.map(line)].join('\n');
}
