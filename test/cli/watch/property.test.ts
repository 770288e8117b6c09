/**
 * A property of `serve --watch`: whatever sequence of edits, renames, deletions and
 * config changes reaches it, once the last one has settled the served folder equals a
 * clean `docsgen build` of the same sources, file for file and byte for byte, and the
 * server answers every path with those bytes. The sequence is drawn from a seed, printed
 * when the test fails; DOCSGEN_PROPERTY_SEED=N replays one.
 *
 * Hashed asset names need no exception: they are hashes of the contents, and the
 * contents are the same.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { serveWatch, type WatchHandle } from '../../../cli/watch.ts';
import type { OverlayPayload } from '../../../cli/watch/live.ts';
import { buildFixture } from '../../helpers/build.ts';
import { copyWatchSite } from '../../helpers/fixtures.ts';
import { checkNoTempLeftovers, createCleanup, tempDir } from '../../helpers/temp.ts';

checkNoTempLeftovers();

/** Enough steps to mix every kind of change and to land some during a build, few enough to run in seconds; DOCSGEN_PROPERTY_STEPS=N explores longer. */
const STEPS = Number(process.env.DOCSGEN_PROPERTY_STEPS) || 14;
const WORDS = ['pagamento', 'sorriso', 'fila', 'cadastro', 'rosto', 'chave', 'loja', 'recibo', 'estorno', 'sandbox', 'parceiro', 'limite'];
const LIVE_TAG = '<script type="module" src="/__docsgen/live-reload.js"></script>';

/** mulberry32: a small seeded generator, so a failing sequence can be replayed from its seed. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/')).sort();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('serve --watch, property: after any sequence of changes it serves what a clean build writes', () => {
  const seed = process.env.DOCSGEN_PROPERTY_SEED ? Number(process.env.DOCSGEN_PROPERTY_SEED) : Math.floor(Math.random() * 2 ** 31);
  const random = generator(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const word = () => pick(WORDS);
  const cleanup = createCleanup();
  let root: string;
  let origConfig: string;
  let watch: WatchHandle;
  const log: string[] = [];
  const terminal: string[] = [];
  const file = (rel: string) => path.join(root, ...rel.split('/'));

  before(async () => {
    root = await tempDir(cleanup, 'property');
    const keep = await tempDir(cleanup, 'property-orig');
    // With the API reference page: what watch mode serves of it must equal a clean build's too.
    await copyWatchSite(root, { api: true });
    origConfig = path.join(keep, 'site.config.ts');
    await writeFile(origConfig, await readFile(file('site.config.ts')));
    // A build may fail on the way (it can read a file another step is writing); what it printed is shown only when the test fails.
    const record = (line: string) => void terminal.push(line);
    watch = await serveWatch({ root, port: 0, host: '127.0.0.1', outDir: file('dist'), level: 'normal', handleSignals: false, write: record, writeError: record });
  });
  after(async () => {
    await watch?.close();
    await cleanup.run();
  });

  it(`equals a clean build after ${STEPS} random changes`, async (t) => {
    const existing = ['content/docs/introducao.mdx', 'content/docs/guia/primeiro.mdx', 'content/docs/guia/segundo.mdx', 'content/blog/2025-01-10-ola.mdx'];
    /** Docs and static files the sequence made, which it may rename or delete (nothing links to them). */
    const added: string[] = [];
    const addedStatic: string[] = [];
    let counter = 0;
    const append = async (rel: string, text: string) => writeFile(file(rel), `${await readFile(file(rel), 'utf8')}${text}`);
    const steps: Record<string, () => Promise<string>> = {
      async 'edit a body'() {
        const rel = pick([...existing, ...added]);
        await append(rel, `\nParágrafo sobre ${word()} e ${word()}.\n`);
        return rel;
      },
      async 'change a title'() {
        const rel = pick([...existing.filter((r) => r.includes('/docs/')), ...added]);
        const text = await readFile(file(rel), 'utf8');
        await writeFile(file(rel), text.replace(/^title: .*$/m, `title: Título ${word()} ${counter++}`));
        return rel;
      },
      async 'add a doc'() {
        const rel = `content/docs/guia/extra-${counter++}.mdx`;
        const position = random() < 0.5 ? `sidebar_position: ${Math.floor(random() * 5)}\n` : '';
        await writeFile(file(rel), `---\ntitle: Extra ${word()}\ndescription: Um doc criado pelo teste.\n${position}---\n\nTexto sobre ${word()}.\n`);
        added.push(rel);
        return rel;
      },
      async 'rename a doc'() {
        if (added.length === 0) return steps['add a doc']!();
        const index = Math.floor(random() * added.length);
        const from = added[index]!;
        const to = `content/docs/guia/renomeado-${counter++}.mdx`;
        await rename(file(from), file(to));
        added[index] = to;
        return `${from} -> ${to}`;
      },
      async 'delete a doc'() {
        if (added.length === 0) return steps['add a doc']!();
        const [rel] = added.splice(Math.floor(random() * added.length), 1);
        await rm(file(rel!));
        return rel!;
      },
      async 'rewrite the config with cp and sed -i'() {
        const edits = [`s/tagline: '[^']*'/tagline: 'Sobre ${word()}'/`, `s/holder: '[^']*'/holder: 'Sorrix ${word()}'/`, `s/label: 'Documentation'/label: 'Docs ${word()}'/`];
        const edit = pick(edits);
        execFileSync('sh', ['-c', `cp "${origConfig}" site.config.ts && sed -i "${edit}" site.config.ts`], { cwd: root });
        return edit;
      },
      async 'add or change a static file'() {
        const rel = addedStatic.length > 0 && random() < 0.5 ? pick(addedStatic) : `static/extra/${word()}-${counter++}.txt`;
        await mkdir(path.dirname(file(rel)), { recursive: true });
        await writeFile(file(rel), `${word()} ${counter++}\n`);
        if (!addedStatic.includes(rel)) addedStatic.push(rel);
        return rel;
      },
      async 'delete a static file'() {
        if (addedStatic.length === 0) return steps['add or change a static file']!();
        const [rel] = addedStatic.splice(Math.floor(random() * addedStatic.length), 1);
        await rm(file(rel!));
        return rel!;
      },
    };
    const kinds = Object.keys(steps);

    const replay = () => `seed ${seed} (replay with DOCSGEN_PROPERTY_SEED=${seed}); steps:\n${log.join('\n')}`;
    t.diagnostic(`seed ${seed}`);
    try {
      for (let step = 0; step < STEPS; step++) {
        const kind = pick(kinds);
        const what = await steps[kind]!();
        // No wait, a wait within the debounce, or one long enough for a build to start: changes land before, during and between builds.
        const pause = pick([0, 5, 40, 150, 400]);
        log.push(`${step + 1}. ${kind}: ${what} (then ${pause} ms)`);
        await sleep(pause);
      }
      // Let the watcher report the last events (its atomic-write delay is 100 ms), then every build finish.
      for (let builds = -1; builds !== watch.builds; ) {
        builds = watch.builds;
        await sleep(500);
        await watch.idle();
      }
      const overlay = (await (await fetch(`${watch.url}/__docsgen/errors`)).json()) as OverlayPayload;
      assert.deepEqual(overlay, { errors: [] }, `the final sources build cleanly; ${replay()}`);

      const clean = await tempDir(t, 'property-clean');
      await buildFixture(root, { outDir: path.join(clean, 'dist'), skipCrawl: true });
      // A build also writes a .br and a .gz copy of its text files; watch mode writes none and
      // compresses on the fly instead, to keep a save fast. Everything else must be the same.
      const built = await listFiles(path.join(clean, 'dist'));
      const originals = new Set(built);
      const expected = built.filter((rel) => !/\.(br|gz)$/.test(rel) || !originals.has(rel.replace(/\.(br|gz)$/, '')));
      const served = await listFiles(file('dist'));
      assert.deepEqual(served, expected, `the watch output holds the files of a clean build; ${replay()}`);
      for (const rel of expected) {
        const want = await readFile(path.join(clean, 'dist', rel));
        assert.ok((await readFile(file(`dist/${rel}`))).equals(want), `dist/${rel} differs from a clean build; ${replay()}`);
        // Files under a dot folder (.docsgen/: the headers the server sends) are never served.
        if (rel.split('/').some((segment) => segment.startsWith('.'))) continue;
        const url = rel === 'index.html' ? '/' : `/${rel}`;
        const res = await fetch(`${watch.url}${url}`);
        if (rel !== '404.html') assert.equal(res.status, 200, `${url}; ${replay()}`);
        let body = Buffer.from(await res.arrayBuffer());
        if (rel.endsWith('.html')) body = Buffer.from(body.toString('utf8').replace(LIVE_TAG, ''));
        assert.ok(body.equals(want), `the server's ${url} differs from a clean build; ${replay()}`);
      }
    } catch (error) {
      t.diagnostic(`${replay()}\nwatch terminal:\n${terminal.join('\n')}`);
      throw error;
    }
  });
});

