/**
 * Watch mode, timed as an author lives it, on a copy of the real site in a temporary
 * folder and on a generated site of 1,023 docs (the size of the scale issue's target),
 * through the command line (`docsgen serve --watch`) in fresh processes:
 * - start → first 200 of a doc page: cold (no output folder, no compile cache) and warm
 *   (the second start: the last output and the compile cache are there);
 * - save of one doc → an open Chromium page shows the new text (swapped in by itself).
 * No other tool's figure from elsewhere is compared with: those were measured on other
 * machines, under other load. Run alone with `node --import tsx bench/watch.ts`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../test/helpers/browser.ts';
import { generateSite } from '../test/helpers/generated-site.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Docs of the generated site watched besides the real site. */
export const LARGE_WATCH_DOCS = 1023;
const START_TIMEOUT_MS = 180_000;
const EDIT_TIMEOUT_MS = 30_000;
/**
 * Time between saves, as an author reads what changed before the next save. After each
 * rebuild the search index (some two thousand small files) is written in the background
 * for a second or two; a save meanwhile stops that work, which the next build redoes.
 */
const SAVE_SPACING_MS = 2500;

/** A site in a temporary folder, and the doc whose page is opened and saved. */
interface WatchSite {
  /** "a copy of the real site", "a generated site of 1,023 docs". */
  label: string;
  dir: string;
  docRoute: string;
  /** Relative to `dir`. */
  docFile: string;
}

export interface WatchBench {
  site: string;
  docs: number;
  /** Spawn of `docsgen serve --watch` to the first 200 of a doc page. */
  start: { coldMs: number; warmMs: number; coldFirstBuildMs: number; warmFirstBuildMs: number };
  /** Save of a doc to the open page showing the new text. */
  edit: { runs: number; medianMs: number; minMs: number; maxMs: number; serverMedianMs: number; stages: { name: string; ms: number }[] };
  targets: { warmStartMs: number; editMs: number };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A copy of the portal's sources; the home page stays a link, as a .tsx page must live in docsgen's tsconfig. */
async function copySite(): Promise<WatchSite> {
  const site = await mkdtemp(path.join(os.tmpdir(), 'docsgen-bench-watch-'));
  for (const entry of ['content/docs', 'content/blog', 'openapi', 'static', 'site.config.ts', 'package.json']) {
    await cp(path.join(root, entry), path.join(site, entry), { recursive: true });
  }
  await symlink(path.join(root, 'content/pages'), path.join(site, 'content/pages'), 'dir');
  // site.config.ts imports defineConfig from ./cli/config.ts.
  await symlink(path.join(root, 'cli'), path.join(site, 'cli'), 'dir');
  return { label: 'a copy of the real site', dir: site, docRoute: '/docs/documentacao/ambientes', docFile: 'content/docs/documentacao/ambientes.mdx' };
}

/** The generated site of the scale benchmark; the doc saved is one in the middle of its sidebar. */
async function largeSite(docs: number): Promise<WatchSite> {
  const site = await generateSite(docs);
  const doc = site.docs[Math.floor(docs / 2)]!;
  return { label: `a generated site of ${docs.toLocaleString('en-US')} docs`, dir: site.dir, docRoute: doc.route, docFile: doc.file };
}

interface Running {
  child: ChildProcess;
  output(): string;
  url: string;
  /** ms from spawn to the first 200 of the doc page, and to the "Built" line. */
  firstOkMs: number;
  firstBuildMs: number;
}

async function startWatch(site: string, docRoute: string): Promise<Running> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, 'cli/bin.mjs'), 'serve', '--watch', '--port', String(port), '--root', site], {
    cwd: site,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let firstBuildMs = 0;
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (!firstBuildMs && /Built \d+ pages|first build → build failed/.test(output)) firstBuildMs = performance.now() - started;
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let firstOkMs = 0;
  while (!firstOkMs) {
    if (child.exitCode !== null) throw new Error(`docsgen serve --watch exited:\n${output}`);
    if (performance.now() - started > START_TIMEOUT_MS) {
      child.kill('SIGKILL');
      throw new Error(`no 200 from ${docRoute} within ${START_TIMEOUT_MS} ms:\n${output}`);
    }
    const status = await fetch(`${url}${docRoute}`).then(
      (res) => res.arrayBuffer().then(() => res.status),
      () => 0,
    );
    if (status === 200) firstOkMs = performance.now() - started;
    else await new Promise((resolve) => setTimeout(resolve, 10));
  }
  while (!firstBuildMs) {
    if (performance.now() - started > START_TIMEOUT_MS) throw new Error(`the first build did not finish:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { child, output: () => output, url, firstOkMs, firstBuildMs };
}

async function stopWatch(running: Running): Promise<void> {
  if (running.child.exitCode !== null) return;
  const exited = new Promise((resolve) => running.child.once('exit', resolve));
  running.child.kill('SIGINT');
  const timer = setTimeout(() => running.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** The real site's watch mode (`docs` absent), or a generated site's of `docs` docs. */
export async function benchWatch(edits = 7, docs?: number): Promise<WatchBench> {
  const { label, dir: site, docRoute, docFile } = docs === undefined ? await copySite() : await largeSite(docs);
  let running: Running | undefined;
  const browser = await launchBrowser();
  try {
    const cold = await startWatch(site, docRoute);
    await stopWatch(cold);
    running = await startWatch(site, docRoute);
    const warm = running;

    const page = await browser.newPage();
    const connected = page.waitForResponse((response) => response.url().endsWith('/__docsgen/events'), { timeout: EDIT_TIMEOUT_MS });
    await page.goto(`${warm.url}${docRoute}`);
    await connected;

    const file = path.join(site, docFile);
    const savedLine = new RegExp(`${path.basename(docFile).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} → .* in (\\d+) ms`);
    const original = await readFile(file, 'utf8');
    const samples: number[] = [];
    const serverSamples: number[] = [];
    const stageSamples = new Map<string, number[]>();
    for (let i = 0; i < edits; i++) {
      await new Promise((resolve) => setTimeout(resolve, SAVE_SPACING_MS));
      const marker = `Medição ${i + 1} do modo watch.`;
      const linesBefore = warm.output().split('\n').length;
      // When the page first painted with the new text (wall clock, read in the page): the
      // router swaps the new version in place; a page that reloads instead is followed too.
      const shown = (async () => {
        const deadline = performance.now() + EDIT_TIMEOUT_MS;
        for (;;) {
          try {
            // A string, not a function: the TypeScript loader adds helpers to functions that do not exist in the page.
            return await page.evaluate<number>(`new Promise((resolve) => {
              const text = ${JSON.stringify(marker)};
              // After the next frame's paint: requestAnimationFrame runs just before it, the timeout just after.
              const painted = () => requestAnimationFrame(() => setTimeout(() => resolve(Date.now()), 0));
              // textContent, not innerText: reading it does not make the browser lay the page out early.
              if (document.body && document.body.textContent.includes(text)) return painted();
              const observer = new MutationObserver(() => {
                if (!document.body.textContent.includes(text)) return;
                observer.disconnect();
                painted();
              });
              observer.observe(document, { childList: true, subtree: true, characterData: true });
            })`);
          } catch (error) {
            // A reload destroyed the page the wait ran in: wait again in the new one.
            if (performance.now() > deadline || !/context was destroyed|navigat/i.test(String(error))) throw error;
          }
        }
      })();
      // The observer is in place before the save.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const saved = Date.now();
      // A new paragraph at the top of the body, where an author would type.
      await writeFile(file, original.replace(/\n---\n\n/, `\n---\n\n${marker}\n\n`));
      samples.push((await shown) - saved);
      // Wait for the build's own line, with its server-side time, before the next save.
      const deadline = performance.now() + EDIT_TIMEOUT_MS;
      let line: string | undefined;
      while (!line && performance.now() < deadline) {
        line = warm.output().split('\n').slice(linesBefore - 1).find((l) => savedLine.test(l));
        if (!line) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const serverMs = Number(/ in (\d+) ms/.exec(line ?? '')?.[1] ?? NaN);
      if (Number.isFinite(serverMs)) serverSamples.push(serverMs);
      // "(collect 14 ms · compile 32 ms · …)": the terminal's own stage timings.
      for (const [, name, ms] of (/\(([^)]*)\)\.?$/.exec(line ?? '')?.[1] ?? '').matchAll(/([a-z-]+) (\d+) ms/g)) {
        stageSamples.set(name!, [...(stageSamples.get(name!) ?? []), Number(ms)]);
      }
    }
    await writeFile(file, original);

    const editMs = median(samples);
    const start = { coldMs: cold.firstOkMs, warmMs: warm.firstOkMs, coldFirstBuildMs: cold.firstBuildMs, warmFirstBuildMs: warm.firstBuildMs };
    return {
      site: label,
      docs: docs ?? 0,
      start,
      edit: {
        runs: samples.length,
        medianMs: editMs,
        minMs: Math.min(...samples),
        maxMs: Math.max(...samples),
        serverMedianMs: median(serverSamples),
        stages: [...stageSamples].map(([name, values]) => ({ name, ms: median(values) })),
      },
      // The real site's start target is the watch-mode issue's; the large site's is the scale issue's.
      targets: { warmStartMs: docs === undefined ? 1500 : 3000, editMs: 100 },
    };
  } finally {
    if (running) await stopWatch(running);
    await browser.close();
    await rm(site, { recursive: true, force: true });
  }
}

export function formatWatchBench(bench: WatchBench): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const lines = [
    `Watch mode on ${bench.site} (docsgen serve --watch, fresh processes):`,
    `  start → first 200 of the doc page: cold ${s(bench.start.coldMs)} (first build done at ${s(bench.start.coldFirstBuildMs)}),` +
      ` warm ${s(bench.start.warmMs)} (first build done at ${s(bench.start.warmFirstBuildMs)}); target under ${s(bench.targets.warmStartMs)} warm`,
    `  save of one doc → open page shows the new text: median ${Math.round(bench.edit.medianMs)} ms` +
      ` (min ${Math.round(bench.edit.minMs)}, max ${Math.round(bench.edit.maxMs)}, ${bench.edit.runs} saves ${SAVE_SPACING_MS / 1000} s apart; on the server, change seen → pages written: ${Math.round(bench.edit.serverMedianMs)} ms);` +
      ` target under ${bench.targets.editMs} ms`,
    `    server-side stages (median): ${bench.edit.stages.map((st) => `${st.name} ${Math.round(st.ms)} ms`).join(' · ')}`,
  ];
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(formatWatchBench(await benchWatch(Number(process.env.BENCH_EDITS ?? 7))));
  console.log(`\n${formatWatchBench(await benchWatch(Number(process.env.BENCH_EDITS ?? 7), LARGE_WATCH_DOCS))}`);
}
