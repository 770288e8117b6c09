/**
 * Lighthouse with its default (mobile) configuration against Debian's Chromium, each
 * page run several times and the median of every figure reported. Lighthouse's mobile
 * throttling is simulated, so a loopback server still gets slow-4G-like numbers.
 *
 * Nothing here may reach beyond loopback: the host resolver maps every other name to
 * "not found", so an audit or a page that asks for the internet fails at once instead
 * of waiting for a DNS answer that never comes.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS } from '../test/helpers/browser.ts';
import { median } from './site.ts';

export const LIGHTHOUSE_CHROME_FLAGS = [...CHROMIUM_ARGS, '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost'];

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];

export interface LighthousePage {
  name: string;
  route: string;
  runs: number;
  /** Category scores 0–100, medians. */
  scores: Record<Category, number>;
  /** Milliseconds, except CLS (unitless); medians. */
  metrics: { fcpMs: number; lcpMs: number; tbtMs: number; cls: number; speedIndexMs: number };
  /** Audits below a full score in the median-performance run, for the reader who wants the why. */
  failing: { id: string; category: Category; title: string; score: number | null; display?: string }[];
}

export interface LighthouseBench {
  version: string;
  chromium: string;
  pages: LighthousePage[];
}

type RunnerResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>;
type Lhr = RunnerResult['lhr'];

function score(lhr: Lhr, category: Category): number {
  return Math.round((lhr.categories[category]?.score ?? 0) * 100);
}

function numeric(lhr: Lhr, audit: string): number {
  return lhr.audits[audit]?.numericValue ?? Number.NaN;
}

function failingAudits(lhr: Lhr): LighthousePage['failing'] {
  const out: LighthousePage['failing'] = [];
  for (const category of CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || ref.weight === 0) continue;
      if (audit.scoreDisplayMode === 'notApplicable' || audit.scoreDisplayMode === 'manual' || audit.scoreDisplayMode === 'informative') continue;
      if (audit.score !== null && audit.score >= 1) continue;
      // Metric audits (FCP, LCP, …) below 1 are reported through the metrics themselves.
      if (ref.group === 'metrics') continue;
      out.push({ id: audit.id, category, title: audit.title, score: audit.score, display: audit.displayValue });
    }
  }
  return out;
}

export async function benchLighthouse(baseUrl: string, pages: readonly { name: string; route: string }[], runs = 3): Promise<LighthouseBench> {
  const chrome = await launchChromium();
  const results: LighthousePage[] = [];
  let version = '';
  let chromium = '';
  try {
    for (const page of pages) {
      const lhrs: Lhr[] = [];
      for (let i = 0; i < runs; i++) {
        const result = await lighthouse(new URL(page.route, baseUrl).href, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: [...CATEGORIES],
          // A page that never settles must not stall the benchmark.
          maxWaitForLoad: 30_000,
        });
        if (!result) throw new Error(`Lighthouse returned no result for ${page.route}.`);
        if (result.lhr.runtimeError) throw new Error(`Lighthouse could not audit ${page.route}: ${result.lhr.runtimeError.message}`);
        lhrs.push(result.lhr);
        version = result.lhr.lighthouseVersion;
        chromium = result.lhr.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? '';
      }
      const performance = lhrs.map((l) => score(l, 'performance'));
      const medianPerformance = median(performance);
      // The run whose performance is the median (the lower middle for an even count) explains the score.
      const representative = lhrs[performance.indexOf([...performance].sort((a, b) => a - b)[Math.floor((runs - 1) / 2)]!)] ?? lhrs[0]!;
      results.push({
        name: page.name,
        route: page.route,
        runs,
        scores: {
          performance: medianPerformance,
          accessibility: median(lhrs.map((l) => score(l, 'accessibility'))),
          'best-practices': median(lhrs.map((l) => score(l, 'best-practices'))),
          seo: median(lhrs.map((l) => score(l, 'seo'))),
        },
        metrics: {
          fcpMs: median(lhrs.map((l) => numeric(l, 'first-contentful-paint'))),
          lcpMs: median(lhrs.map((l) => numeric(l, 'largest-contentful-paint'))),
          tbtMs: median(lhrs.map((l) => numeric(l, 'total-blocking-time'))),
          cls: median(lhrs.map((l) => numeric(l, 'cumulative-layout-shift'))),
          speedIndexMs: median(lhrs.map((l) => numeric(l, 'speed-index'))),
        },
        failing: failingAudits(representative),
      });
    }
  } finally {
    await chrome.kill();
  }
  return { version, chromium, pages: results };
}

export interface DebuggableChromium {
  port: number;
  kill(): Promise<void>;
}

/**
 * Debian's Chromium with a remote-debugging port for Lighthouse, a fresh profile, and
 * the project's flags (no browser download, no background networking).
 */
export async function launchChromium(): Promise<DebuggableChromium> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'docsgen-lighthouse-'));
  const executable = process.env.CHROME_PATH || '/usr/bin/chromium';
  const child = spawn(executable, [...LIGHTHOUSE_CHROME_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(profile, { recursive: true, force: true });
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`${executable} did not open its debugging port within 30 s:\n${err}`)), 30_000);
      child.stderr?.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`Could not start ${executable} (set CHROME_PATH to a Chromium): ${error.message}`));
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${executable} exited with code ${code} before it was ready:\n${err}`));
      });
    });
    // Chromium goes on writing to stderr; an unread pipe would fill and stall it.
    child.stderr?.resume();
    return { port, kill };
  } catch (error) {
    await kill();
    throw error;
  }
}
