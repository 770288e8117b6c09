/**
 * Tables for `npm run bench`, each figure beside the reference numbers quoted in the
 * project's issue (sites of the same structure built with other generators, measured on
 * machines like this one, not re-measured here) and beside docsgen's own targets.
 */
import type { LayoutShiftResult } from './layout-shift.ts';
import type { LighthouseBench } from './lighthouse.ts';
import type { LoadBench } from './load.ts';
import { kb } from './site.ts';
import type { PageWeight, WeightPhase } from './weight.ts';

/** KB gzip of JS a doc page ships, as quoted. Starlight's is before the load event. */
export const REFERENCE_DOC_JS_KB = [
  { name: 'Docusaurus 3.7', kb: 183 },
  { name: 'VitePress', kb: 62 },
  { name: 'Starlight', kb: 5 },
];

/** Lighthouse mobile performance, as quoted; VitePress is a range 88–95 (its middle here). */
export const REFERENCE_PERFORMANCE = [
  { name: 'Docusaurus 3.7', docs: 74, api: 69 },
  { name: 'VitePress', docs: 91.5, api: undefined },
  { name: 'Starlight', docs: 100, api: undefined },
];

export const TARGETS = {
  docJsBeforeLoadKb: 10,
  docJsUntilIdleKb: 60,
  performanceContent: 100,
  performanceApi: 90,
  otherCategories: 100,
};

const pad = (value: string, width: number) => value.padStart(width);
const padEnd = (value: string, width: number) => value.padEnd(width);

function weightRow(label: string, phase: WeightPhase): string {
  const cell = (b: { raw: number; gzip: number }) => pad(`${kb(b.raw)} / ${kb(b.gzip)}`, 22);
  return `  ${padEnd(label, 40)}${cell(phase.html)}${cell(phase.js)}${cell(phase.css)}${cell(phase.prefetch)}${pad(String(phase.requests), 6)}`;
}

export function formatWeight(pages: PageWeight[]): string {
  const lines = [
    'Page weight in headless Chromium (raw / gzip -9 of each body; requests include the page):',
    `  ${padEnd('page', 40)}${pad('HTML', 22)}${pad('JS', 22)}${pad('CSS', 22)}${pad('prefetched pages', 22)}${pad('req', 6)}`,
  ];
  for (const page of pages) {
    lines.push(weightRow(`${page.route}, before load`, page.beforeLoad));
    lines.push(weightRow(`${''.padEnd(page.route.length)}  until idle`, page.untilIdle));
  }
  const doc = pages.find((p) => p.name === 'doc');
  if (doc) {
    const before = doc.beforeLoad.js.gzip / 1024;
    const idle = doc.untilIdle.js.gzip / 1024;
    lines.push(`  doc page JS: ${before.toFixed(1)} KB gzip before load (target ≤ ${TARGETS.docJsBeforeLoadKb}), ${idle.toFixed(1)} KB until idle (target ≤ ${TARGETS.docJsUntilIdleKb})`);
    lines.push('  compared with the JS the reference generators ship to a doc page:');
    for (const ref of REFERENCE_DOC_JS_KB) {
      lines.push(`    ${padEnd(ref.name, 16)}${pad(`${ref.kb} KB`, 8)}  → docsgen before load ${ratio(ref.kb, before)}, until idle ${ratio(ref.kb, idle)}`);
    }
  }
  return lines.join('\n');
}

/** "12.3× less" / "1.4× more": how docsgen's bytes compare with a reference's. */
function ratio(reference: number, ours: number): string {
  if (ours <= 0) return 'nothing shipped';
  const r = reference / ours;
  return r >= 1 ? `${r.toFixed(1)}× less` : `${(1 / r).toFixed(1)}× more`;
}

export function formatLighthouse(bench: LighthouseBench): string {
  const runs = bench.pages[0]?.runs ?? 0;
  const lines = [
    `Lighthouse ${bench.version} (mobile default config, ${bench.chromium}), median of ${runs} runs:`,
    `  ${padEnd('page', 28)}${pad('perf', 5)}${pad('FCP', 8)}${pad('LCP', 8)}${pad('TBT', 8)}${pad('CLS', 7)}${pad('a11y', 6)}${pad('BP', 5)}${pad('SEO', 5)}`,
  ];
  for (const page of bench.pages) {
    const m = page.metrics;
    lines.push(
      `  ${padEnd(page.route, 28)}${pad(String(page.scores.performance), 5)}${pad(`${(m.fcpMs / 1000).toFixed(2)}s`, 8)}${pad(`${(m.lcpMs / 1000).toFixed(2)}s`, 8)}${pad(`${m.tbtMs.toFixed(0)}ms`, 8)}${pad(m.cls.toFixed(3), 7)}${pad(String(page.scores.accessibility), 6)}${pad(String(page.scores['best-practices']), 5)}${pad(String(page.scores.seo), 5)}`,
    );
    for (const audit of page.failing) lines.push(`      below full score: ${audit.category} ${audit.id}${audit.display ? ` (${audit.display})` : ''}`);
  }
  lines.push('  performance compared with the references (docsgen score / reference score):');
  const content = bench.pages.filter((p) => !p.route.includes('api-reference'));
  const api = bench.pages.filter((p) => p.route.includes('api-reference'));
  const docsScore = Math.min(...content.map((p) => p.scores.performance));
  const apiScore = api.length ? Math.min(...api.map((p) => p.scores.performance)) : undefined;
  for (const ref of REFERENCE_PERFORMANCE) {
    const parts = [`content pages (lowest ${docsScore}) ${(docsScore / ref.docs).toFixed(2)}× its ${ref.docs}`];
    if (ref.api !== undefined && apiScore !== undefined) parts.push(`API pages (lowest ${apiScore}) ${(apiScore / ref.api).toFixed(2)}× its ${ref.api}`);
    lines.push(`    ${padEnd(ref.name, 16)}${parts.join('; ')}`);
  }
  return lines.join('\n');
}

export function formatLoad(bench: LoadBench): string {
  const lines = [
    `docsgen serve and nginx (deploy/nginx.conf) under load on loopback (autocannon, ${bench.connections} connections, ${bench.secondsPerUrl} s per URL), with accept-encoding "${bench.acceptEncoding}" and without:`,
    `  ${padEnd('URL', 30)}${padEnd('server', 15)}${padEnd('encoding', 10)}${pad('req/s', 9)}${pad('p50', 8)}${pad('p90', 8)}${pad('p99', 8)}${pad('max', 8)}${pad('MB/s', 8)}${pad('errors', 8)}${pad('wrong', 7)}`,
  ];
  for (const r of bench.results) {
    const shown = `${r.name} (${r.expectStatus})`;
    lines.push(
      `  ${padEnd(shown, 30)}${padEnd(r.server, 15)}${padEnd(r.acceptEncoding === '' ? 'none' : 'browser', 10)}${pad(r.requestsPerSecond.toFixed(0), 9)}${pad(`${r.latency.p50}ms`, 8)}${pad(`${r.latency.p90}ms`, 8)}${pad(`${r.latency.p99}ms`, 8)}${pad(`${r.latency.max}ms`, 8)}${pad((r.throughputBps / 1024 / 1024).toFixed(1), 8)}${pad(String(r.errors), 8)}${pad(String(r.unexpected), 7)}`,
    );
  }
  if (bench.nginxSkipped) lines.push(`  (nginx not measured: ${bench.nginxSkipped})`);
  lines.push('  (errors: connection errors and timeouts; wrong: responses with another status than expected)');
  return lines.join('\n');
}

export interface TargetCheck {
  what: string;
  target: string;
  measured: string;
  /** measured / target, or target / measured for "at most" targets: ≥ 1 is met. */
  ratio: number;
  met: boolean;
}

export function targetChecks(results: Record<string, unknown>): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const weight = results.weight as PageWeight[] | undefined;
  const doc = weight?.find((p) => p.name === 'doc');
  if (doc) {
    const before = doc.beforeLoad.js.gzip / 1024;
    const idle = doc.untilIdle.js.gzip / 1024;
    checks.push({ what: 'doc page JS before load', target: `≤ ${TARGETS.docJsBeforeLoadKb} KB gzip`, measured: `${before.toFixed(1)} KB`, ratio: TARGETS.docJsBeforeLoadKb / before, met: before <= TARGETS.docJsBeforeLoadKb });
    checks.push({ what: 'doc page JS until idle', target: `≤ ${TARGETS.docJsUntilIdleKb} KB gzip`, measured: `${idle.toFixed(1)} KB`, ratio: TARGETS.docJsUntilIdleKb / idle, met: idle <= TARGETS.docJsUntilIdleKb });
  }
  for (const page of (results.layoutShift as LayoutShiftResult[] | undefined) ?? []) {
    // A target of 0: met or not, the ratio is 1 when met and 0 otherwise.
    const met = page.total === 0 && page.unaskedScrolls === 0;
    checks.push({ what: `layout shift while reading ${page.route}`, target: '0', measured: page.total.toFixed(4), ratio: met ? 1 : 0, met });
  }
  const lighthouse = results.lighthouse as LighthouseBench | undefined;
  for (const page of lighthouse?.pages ?? []) {
    const isApi = page.route.includes('api-reference');
    const perfTarget = isApi ? TARGETS.performanceApi : TARGETS.performanceContent;
    checks.push({
      what: `Lighthouse performance ${page.route}`,
      target: isApi ? `≥ ${perfTarget}` : `${perfTarget}`,
      measured: String(page.scores.performance),
      ratio: page.scores.performance / perfTarget,
      met: page.scores.performance >= perfTarget,
    });
    for (const category of ['accessibility', 'best-practices', 'seo'] as const) {
      const value = page.scores[category];
      checks.push({ what: `Lighthouse ${category} ${page.route}`, target: String(TARGETS.otherCategories), measured: String(value), ratio: value / TARGETS.otherCategories, met: value >= TARGETS.otherCategories });
    }
  }
  return checks;
}

export function formatTargets(checks: TargetCheck[]): string {
  const missed = checks.filter((c) => !c.met);
  const lines = [`Targets from the issue: ${checks.length - missed.length} of ${checks.length} met.`];
  for (const c of checks) lines.push(`  ${c.met ? 'met   ' : 'MISSED'} ${padEnd(c.what, 50)} ${pad(c.measured, 9)}  target ${padEnd(c.target, 16)} (${c.ratio.toFixed(2)}× of target)`);
  return lines.join('\n');
}
