/**
 * `docsgen serve --watch` against a copy of test/fixtures/sites/watch in a temporary
 * folder: edits, new, renamed and deleted docs reach the served HTML; broken files are
 * reported in the terminal and in the overlay payload while the last good output stays
 * served; the live-reload events are the ones open pages act on; template changes are
 * picked up (on a copy of docsgen, whose templates they are); the command line fails
 * clearly on a port in use and stops cleanly on Ctrl+C; and nothing of live reload ends
 * up in `docsgen build` output.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cp, mkdir, open, readFile, readdir, rename, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { loadConfig } from '../../../cli/config.ts';
import { DocsgenError } from '../../../cli/errors.ts';
import { serveWatch, type WatchHandle } from '../../../cli/watch.ts';
import type { OverlayPayload } from '../../../cli/watch/live.ts';
import { buildFixture } from '../../helpers/build.ts';
import { copyWatchSite } from '../../helpers/fixtures.ts';
import { repoRoot } from '../../helpers/site.ts';
import { checkNoTempLeftovers, createCleanup, tempDir, type CleanupOwner } from '../../helpers/temp.ts';
import { waitFor } from '../../helpers/wait.ts';

checkNoTempLeftovers();

const WAIT_MS = 20_000;

/** A fresh copy of the fixture site in a temporary folder, removed when `owner` ends; with its API reference page only when `api`. */
async function copySite(owner: CleanupOwner, { api = false } = {}): Promise<string> {
  const root = await tempDir(owner, 'watch');
  await copyWatchSite(root, { api });
  return root;
}


interface LiveEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Listens to the live-reload stream as an open page does. */
function listen(url: string): Promise<{ events: LiveEvent[]; close(): void }> {
  return new Promise((resolve, reject) => {
    const events: LiveEvent[] = [];
    const req = http.get(`${url}/__docsgen/events`, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
        }
      });
      res.on('error', () => undefined);
      resolve({ events, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

/** Runs the docsgen command line of `docsgenRoot` (the repository, or a copy of it) as an author would. */
function runCli(args: string[], cwd: string, docsgenRoot = repoRoot) {
  const child = spawn(process.execPath, [path.join(docsgenRoot, 'cli/bin.mjs'), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/**
 * A copy of docsgen itself (cli/, templates/, its package.json and tsconfig, and a link
 * to its node_modules), so a test can edit the templates, which belong to docsgen and not
 * to the site.
 */
async function copyDocsgen(owner: CleanupOwner): Promise<string> {
  const copy = await tempDir(owner, 'copy');
  for (const entry of ['cli', 'templates', 'package.json', 'tsconfig.json']) await cp(path.join(repoRoot, entry), path.join(copy, entry), { recursive: true });
  await symlink(path.join(repoRoot, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  return copy;
}

describe('docsgen serve --watch', () => {
  let root: string;
  let watch: WatchHandle;
  let stream: { events: LiveEvent[]; close(): void };
  const lines: string[] = [];
  const terminal = () => lines.join('\n');
  // DOCSGEN_TEST_VERBOSE=1 shows the watch terminal while the tests run.
  const record = (line: string) => {
    lines.push(line);
    if (process.env.DOCSGEN_TEST_VERBOSE) process.stderr.write(`${line}\n`);
  };

  const file = (rel: string) => path.join(root, ...rel.split('/'));
  const read = (rel: string) => readFile(file(rel), 'utf8');
  const save = (rel: string, text: string) => writeFile(file(rel), text);
  const edit = async (rel: string, change: (text: string) => string) => {
    const before = await read(rel);
    const after = change(before);
    assert.notEqual(after, before, `the edit of ${rel} changes nothing`);
    await save(rel, after);
    return before;
  };
  const page = async (route: string) => {
    const res = await fetch(`${watch.url}${route}`);
    return { status: res.status, html: await res.text() };
  };
  const overlay = async (): Promise<OverlayPayload> => (await (await fetch(`${watch.url}/__docsgen/errors`)).json()) as OverlayPayload;
  const eventsAfter = (count: number) => stream.events.slice(count);

  /** Saves the original text back and waits until the site is built from it, cleanly. */
  const restore = async (rel: string, original: string) => {
    const builds = watch.builds;
    await save(rel, original);
    await waitFor(`a build after ${rel} was restored`, () => watch.builds > builds);
    await watch.idle();
    await waitFor('the overlay to clear', async () => (await overlay()).errors.length === 0);
  };
  /**
   * edit(), undone when the test ends, so the tests of this suite, which share one watch
   * process, each start from the fixture as it is and can run alone or in any order.
   */
  const editUndone = async (t: TestContext, rel: string, change: (text: string) => string) => {
    const original = await edit(rel, change);
    t.after(() => restore(rel, original));
    return original;
  };

  const cleanup = createCleanup();
  before(async () => {
    root = await copySite(cleanup, { api: true });
    watch = await serveWatch({
      root,
      port: 0,
      host: '127.0.0.1',
      outDir: path.join(root, 'dist'),
      level: 'normal',
      write: record,
      writeError: record,
      handleSignals: false,
    });
    stream = await listen(watch.url);
    await waitFor('the test stream to connect', () => watch.liveClients > 0);
  });

  after(async () => {
    stream?.close();
    await watch?.close();
    await cleanup.run();
  });

  it('builds, serves the site and injects the live-reload client into every page', async () => {
    assert.match(terminal(), /Built \d+ pages in /);
    assert.match(terminal(), /Watching content\/, openapi\/, site\.config\.ts, static\/ and \S*templates\//);
    const intro = await page('/docs/introducao');
    assert.equal(intro.status, 200);
    assert.match(intro.html, /Texto original da introdução/);
    assert.match(intro.html, /<script type="module" src="\/__docsgen\/live-reload\.js"><\/script><\/head>/);
    const missing = await page('/docs/nao-existe');
    assert.equal(missing.status, 404, 'unknown paths get 404.html as in production');
    assert.match(missing.html, /live-reload\.js/);
    const client = await fetch(`${watch.url}/__docsgen/live-reload.js`);
    assert.equal(client.status, 200);
    assert.match(client.headers.get('content-type') ?? '', /javascript/);
    assert.match(await client.text(), /EventSource/);
    assert.deepEqual(await overlay(), { errors: [] });
    assert.equal(stream.events[0]?.event, 'hello');
    // The served folder holds the build, not the injection.
    const onDisk = await readFile(path.join(root, 'dist/docs/introducao/index.html'), 'utf8');
    assert.doesNotMatch(onDisk, /__docsgen/);
  });

  it('rebuilds only the pages of an edited doc body and tells open pages to reload', async (t) => {
    const other = path.join(root, 'dist/docs/guia/segundo/index.html');
    const otherBefore = (await stat(other)).mtimeMs;
    const seen = stream.events.length;
    await editUndone(t, 'content/docs/introducao.mdx', (text) => text.replace('Texto original da introdução', 'Texto editado da introdução'));
    await waitFor('the edit to be served', async () => (await page('/docs/introducao')).html.includes('Texto editado da introdução'));
    await watch.idle();
    // The docs root shows the main doc, so it changed too; nothing else did.
    const reload = await waitFor('a reload event', () => eventsAfter(seen).find((e) => e.event === 'reload'));
    assert.deepEqual([...(reload.data.routes as string[])].sort(), ['/docs', '/docs/introducao']);
    // The new pages come with the event, as served (live-reload client included), so an open page needs no request.
    const pushed = reload.data.pages as Record<string, string>;
    assert.deepEqual(Object.keys(pushed).sort(), ['/docs', '/docs/introducao']);
    assert.match(pushed['/docs/introducao']!, /Texto editado da introdução/);
    assert.equal(pushed['/docs/introducao'], (await page('/docs/introducao')).html);
    assert.equal((await stat(other)).mtimeMs, otherBefore, 'an unrelated page was not rewritten');
    assert.match(terminal(), /content\/docs\/introducao\.mdx → 2 pages \/docs\/introducao, \/docs updated in [\d.]+ m?s/);
  });

  it('brings the search index up to date after the browsers were told, leaving one index folder', async (t) => {
    const searchIndex = async () => {
      const meta = JSON.parse(await read('dist/search/index.json')) as { base: string };
      const folder = file(`dist${meta.base}`);
      const passages = await Promise.all((await readdir(path.join(folder, 'f'))).map((name) => readFile(path.join(folder, 'f', name), 'utf8')));
      return { base: meta.base, text: passages.join('\n'), folders: await readdir(file('dist/assets/search')) };
    };
    await editUndone(t, 'content/docs/introducao.mdx', (text) => text.replace('Texto original da introdução', 'Texto antes da busca'));
    await waitFor('the edit to be served', async () => (await page('/docs/introducao')).html.includes('Texto antes da busca'));
    await watch.idle();
    const before = await searchIndex();
    assert.match(before.text, /Texto antes da busca/);
    // Two saves in a row: the second stops the first one's index half-way, and the index that stays is the last one's.
    await edit('content/docs/introducao.mdx', (t) => t.replace('Texto antes da busca', 'Texto indexado uma vez'));
    await waitFor('the first save to be served', async () => (await page('/docs/introducao')).html.includes('Texto indexado uma vez'));
    await edit('content/docs/introducao.mdx', (t) => t.replace('Texto indexado uma vez', 'Texto indexado de novo'));
    await waitFor('the second save to be served', async () => (await page('/docs/introducao')).html.includes('Texto indexado de novo'));
    await watch.idle();
    const after = await searchIndex();
    assert.notEqual(after.base, before.base);
    assert.match(after.text, /Texto indexado de novo/);
    assert.doesNotMatch(after.text, /Texto indexado uma vez|Texto antes da busca/);
    assert.deepEqual(after.folders, [after.base.split('/').filter(Boolean).pop()], 'older index folders are deleted');
    // .docsgen/ holds the site's security headers, written by every build.
    const leftovers = (await readdir(file('dist'), { recursive: true })).map(String).filter((name) => !name.startsWith('.docsgen') && path.basename(name).startsWith('.'));
    assert.deepEqual(leftovers, [], 'no temporary files are left behind');
  });

  it('re-renders every page whose sidebar shows a title that changed', async (t) => {
    await editUndone(t, 'content/docs/guia/segundo.mdx', (text) => text.replace('title: Segundo passo', 'title: Passo seguinte'));
    await waitFor('the new title in the sidebar of another doc', async () => (await page('/docs/guia/primeiro')).html.includes('Passo seguinte'));
    // A page that does not hold that category points to the shared sidebar JSON, rewritten with the new title.
    const src = /data-sidebar-src="([^"#]+)/.exec((await page('/docs/introducao')).html)?.[1];
    assert.ok(src, 'the page references the sidebar JSON');
    assert.match((await page(src)).html, /Passo seguinte/);
  });

  it('serves a doc added in a new folder, follows its rename and its deletion', async () => {
    await mkdir(file('content/docs/novo/pasta'), { recursive: true });
    await save(
      'content/docs/novo/pasta/pagina.mdx',
      '---\ntitle: Página nova\ndescription: Uma página criada com o modo watch em execução.\n---\n\nConteúdo da página nova.\n',
    );
    await waitFor('the new doc', async () => (await page('/docs/novo/pasta/pagina')).status === 200);
    assert.match((await page('/docs/novo/pasta/pagina.html')).html, /Conteúdo da página nova/);

    await rename(file('content/docs/novo/pasta/pagina.mdx'), file('content/docs/novo/pasta/renomeada.mdx'));
    await waitFor('the renamed doc', async () => (await page('/docs/novo/pasta/renomeada')).status === 200);
    await waitFor('the old name to be gone', async () => (await page('/docs/novo/pasta/pagina')).status === 404);
    await watch.idle();
    assert.equal(existsSync(path.join(root, 'dist/docs/novo/pasta/pagina.html')), false);
    assert.equal(existsSync(path.join(root, 'dist/docs/novo/pasta/pagina')), false, 'the emptied folder is removed too');

    await rm(file('content/docs/novo'), { recursive: true });
    await waitFor('the deleted doc to be gone', async () => (await page('/docs/novo/pasta/renomeada')).status === 404);
    await watch.idle();
    assert.equal(existsSync(path.join(root, 'dist/docs/novo')), false);
    assert.match(terminal(), /\/docs\/novo\/pasta\/renomeada removed/);
  });

  it('coalesces saves in a row into one build', async (t) => {
    await watch.idle();
    const before = watch.builds;
    const original = await read('content/docs/guia/primeiro.mdx');
    t.after(() => restore('content/docs/guia/primeiro.mdx', original));
    // Written back to back without yielding, as a formatter or a script saves: the watch
    // sees them only after the last. Awaited one by one, the saves of a busy machine were
    // sometimes further apart than the quiet time that makes one build of them.
    for (let i = 1; i <= 6; i++) {
      writeFileSync(file('content/docs/guia/primeiro.mdx'), original.replace(/Crie as credenciais[^\n]*/, `Crie as credenciais (versão ${i}).`));
    }
    await waitFor('the last save to be served', async () => (await page('/docs/guia/primeiro')).html.includes('(versão 6)'));
    await watch.idle();
    assert.ok(watch.builds - before <= 2, `6 saves in a row made ${watch.builds - before} builds`);
  });

  it('reports an MDX syntax error with file:line:col and its lines, keeps the last good page, and recovers', async () => {
    const seen = stream.events.length;
    const original = await edit('content/docs/guia/primeiro.mdx', (t) => t.replace('Comece pela', 'Comece <pela'));
    const payload = await waitFor('the overlay payload', async () => ((await overlay()).errors.length > 0 ? overlay() : undefined));
    const [error] = payload.errors;
    assert.ok(error);
    assert.match(error.message, /MDX syntax error/);
    assert.equal(error.file, 'content/docs/guia/primeiro.mdx');
    assert.equal(error.line, 7);
    assert.match(error.location, /^content\/docs\/guia\/primeiro\.mdx:7:\d+$/);
    assert.match(error.excerpt ?? '', /> 7 \| Comece <pela/);
    assert.match(terminal(), /content\/docs\/guia\/primeiro\.mdx:7:\d+ {2}MDX syntax error/);
    assert.match(terminal(), /build failed in [\d.]+ m?s; still serving the last good build/);
    assert.ok(eventsAfter(seen).some((e) => e.event === 'build-error'), 'open pages were sent the error');
    const served = await page('/docs/guia/primeiro');
    assert.equal(served.status, 200);
    assert.match(served.html, /Comece pela/, 'the last good page stays served');

    const fixed = stream.events.length;
    await save('content/docs/guia/primeiro.mdx', original.replace('Comece pela', 'Comece agora pela'));
    await waitFor('the fix to be served', async () => (await page('/docs/guia/primeiro')).html.includes('Comece agora pela'));
    assert.deepEqual(await overlay(), { errors: [] });
    await waitFor('an ok event', () => eventsAfter(fixed).some((e) => e.event === 'ok'));
    assert.ok(eventsAfter(fixed).some((e) => e.event === 'reload' && (e.data.routes as string[]).includes('/docs/guia/primeiro')));
    assert.match(terminal(), /the error is fixed/);
  });

  it('reports bad front matter at its line', async () => {
    const original = await edit('content/docs/guia/segundo.mdx', (t) => t.replace('sidebar_position: 2', 'sidebar_position: segundo'));
    const payload = await waitFor('the overlay payload', async () => ((await overlay()).errors.length > 0 ? overlay() : undefined));
    const error = payload.errors.find((e) => e.file === 'content/docs/guia/segundo.mdx');
    assert.ok(error, JSON.stringify(payload));
    assert.match(error.message, /sidebar_position/);
    assert.equal(error.line, 4);
    assert.match(error.excerpt ?? '', /> 4 \| sidebar_position: segundo/);
    assert.match(terminal(), /content\/docs\/guia\/segundo\.mdx:4:\d+ {2}Front-matter field 'sidebar_position'/);
    await restore('content/docs/guia/segundo.mdx', original);
  });

  it('reports a broken link with the lines around it, read from the source', async () => {
    const original = await edit('content/docs/guia/segundo.mdx', (t) => t.replace('(/docs/guia/primeiro)', '(/docs/guia/primero)'));
    const payload = await waitFor('the overlay payload', async () => ((await overlay()).errors.length > 0 ? overlay() : undefined));
    const error = payload.errors.find((e) => /primero/.test(e.message));
    assert.ok(error, JSON.stringify(payload));
    assert.equal(error.file, 'content/docs/guia/segundo.mdx');
    assert.match(error.location, /^content\/docs\/guia\/segundo\.mdx:7:\d+$/);
    assert.match(error.excerpt ?? '', /> 7 \| Depois do \[primeiro passo\]\(\/docs\/guia\/primero\)/);
    assert.match(error.hint ?? '', /Did you mean \/docs\/guia\/primeiro\?/);
    assert.match(terminal(), /content\/docs\/guia\/segundo\.mdx:7:\d+ {2}Broken link '\/docs\/guia\/primero'/);
    await restore('content/docs/guia/segundo.mdx', original);
  });

  it('checks links into an edited page: removing a heading another doc links to is reported there', async () => {
    const original = await edit('content/docs/guia/primeiro.mdx', (t) => t.replace('## Como começar', '## Antes de começar'));
    const payload = await waitFor('the overlay payload', async () => ((await overlay()).errors.length > 0 ? overlay() : undefined));
    const error = payload.errors.find((e) => /#como-comecar/.test(e.message));
    assert.ok(error, JSON.stringify(payload));
    assert.equal(error.file, 'content/docs/introducao.mdx');
    assert.match(error.hint ?? '', /#antes-de-comecar/);
    await restore('content/docs/guia/primeiro.mdx', original);
  });

  it('reports an invalid OpenAPI document and recovers', async (t) => {
    const original = await edit('openapi/mini.yaml', (t) => t.replace('  title: Sorrix Health API', '  title: "Sorrix Health API'));
    const payload = await waitFor('the overlay payload', async () => ((await overlay()).errors.length > 0 ? overlay() : undefined));
    const error = payload.errors[0];
    assert.ok(error);
    assert.equal(error.file, 'openapi/mini.yaml');
    assert.ok(error.line !== undefined && error.line >= 3, JSON.stringify(error));
    assert.match(terminal(), /openapi\/mini\.yaml:\d+:\d+ {2}The API document is not valid YAML/);
    assert.equal((await page('/api-reference')).status, 200, 'the API page stays served');
    await restore('openapi/mini.yaml', original);
    await editUndone(t, 'openapi/mini.yaml', (text) => text.replace('summary: Check the service status', 'summary: Check whether the service is up'));
    await waitFor('the edited operation', async () => (await page('/api-reference')).html.includes('Check whether the service is up'));
  });

  it('reports a config typo with its line, keeps serving, and reloads the config once fixed', async () => {
    const original = await edit('site.config.ts', (t) => t.replace("  tagline: 'Sem filas, sorria.',", "  taglin: 'Sem filas, sorria.',"));
    const payload = await waitFor('the overlay payload', async () => ((await overlay()).errors.length > 0 ? overlay() : undefined));
    const error = payload.errors[0];
    assert.ok(error);
    assert.match(error.message, /Unknown config key 'taglin'/);
    assert.match(error.hint ?? '', /Did you mean 'tagline'\?/);
    const line = original.split('\n').findIndex((l) => l.startsWith('  tagline:')) + 1;
    assert.equal(error.line, line);
    assert.ok(error.location.endsWith(`site.config.ts:${line}:3`), error.location);
    assert.equal((await page('/')).status, 200);
    await save('site.config.ts', original.replace("copyright: { year: 2025, holder: 'Sorrix' }", "copyright: { year: 2025, holder: 'Sorrix Pagamentos' }"));
    await waitFor('the new config in the footer', async () => (await page('/')).html.includes('Copyright © 2025 Sorrix Pagamentos'));
    // The pages are served as the build writes them; the overlay is cleared when it ends, just after.
    await waitFor('the overlay cleared', async () => (await overlay()).errors.length === 0);
    assert.deepEqual(await overlay(), { errors: [] });
  });

  it('copies a new static file and reloads every open page', async (t) => {
    const seen = stream.events.length;
    t.after(async () => {
      const builds = watch.builds;
      await rm(file('static/img/novo.svg'));
      await waitFor('a build after the new static file was removed', () => watch.builds > builds);
      await watch.idle();
    });
    await save('static/img/novo.svg', '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"><rect width="2" height="2"/></svg>\n');
    await waitFor('the new static file', async () => (await fetch(`${watch.url}/img/novo.svg`)).status === 200);
    await waitFor('a reload-all event', () => eventsAfter(seen).some((e) => e.event === 'reload-all'));
  });

  it('leaves nothing of live reload in the output of docsgen build', async () => {
    await watch.idle();
    const out = path.join(root, 'build-output');
    const config = await loadConfig(root);
    await buildFixture(config, { outDir: out, skipCrawl: true, cache: true });
    const files = (await readdir(out, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    assert.ok(files.length > 10);
    for (const entry of files) {
      const text = await readFile(path.join(entry.parentPath, entry.name), 'utf8');
      // The endpoint, the injected tag, and strings only the live-reload client holds.
      for (const trace of ['__docsgen', 'live-reload.js', 'docsgen-error-overlay', 'docsgen.live-reload.scroll']) {
        assert.ok(!text.includes(trace), `${path.relative(out, path.join(entry.parentPath, entry.name))} contains '${trace}'`);
      }
    }
  });
});

describe('docsgen serve --watch from the command line', () => {
  it('prints the port-in-use error and exits with status 1', async (t) => {
    const root = await copySite(t);
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const cli = runCli(['serve', '--watch', '--port', String(port), '--root', root], root);
      const code = await Promise.race([cli.exited, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), WAIT_MS))]);
      if (code === 'timeout') cli.child.kill('SIGKILL');
      assert.equal(code, 1, cli.output());
      assert.match(cli.output(), new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use\\.`));
      assert.match(cli.output(), /Fix: .*--port/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('stops cleanly on Ctrl+C', async (t) => {
    const root = await copySite(t);
    const cli = runCli(['serve', '--watch', '--port', '0', '--root', root], root);
    try {
      await waitFor('the first build', () => /Watching /.test(cli.output()), 60_000);
      const url = /at (http:\/\/localhost:\d+)/.exec(cli.output())?.[1];
      assert.ok(url, cli.output());
      assert.equal((await fetch(`${url}/docs/introducao`)).status, 200);
      cli.child.kill('SIGINT');
      const code = await Promise.race([cli.exited, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), WAIT_MS))]);
      assert.equal(code, 0, cli.output());
      assert.match(cli.output(), /stopping/);
      await assert.rejects(fetch(`${url}/`), 'the server is closed');
    } finally {
      if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
    }
  });

  it('with no earlier output, a first build that fails serves a page saying so, not "building"', async (t) => {
    const root = await copySite(t);
    await writeFile(path.join(root, 'content/docs/introducao.mdx'), '---\ntitle: Quebrada\ndescription: Quebrada.\n---\n\nUm valor {sem chave.\n');
    const outDir = path.join(await tempDir(t, 'watch-out'), 'dist');
    const handle = await serveWatch({ root, port: 0, host: '127.0.0.1', outDir, level: 'quiet', handleSignals: false, write: () => {}, writeError: () => {} });
    try {
      for (const route of ['/', '/docs/introducao']) {
        const html = await (await fetch(`${handle.url}${route}`)).text();
        assert.match(html, /<h1>Build failed<\/h1>/, route);
        // The state the live-reload script reads (and sets in a page opened while the build ran).
        assert.match(html, /<html lang="en" data-docsgen-placeholder="failed">/, route);
        assert.match(html, /The build failed, and no earlier build is there to show\. Fix the file named in the error/, route);
        assert.doesNotMatch(html, /Building|reloads by itself when the build is done/, route);
      }
      const stream = await listen(handle.url);
      try {
        await waitFor('the hello event', () => stream.events.length > 0, WAIT_MS);
      } finally {
        stream.close();
      }
      const hello = stream.events[0]!;
      assert.equal(hello.event, 'hello');
      assert.equal((hello.data.errors as OverlayPayload).noGoodBuild, true);
    } finally {
      await handle.close();
    }
    // Started again on the folder that run left, the placeholder is still no build to show.
    const again = await serveWatch({ root, port: 0, host: '127.0.0.1', outDir, level: 'quiet', handleSignals: false, write: () => {}, writeError: () => {} });
    try {
      const stream = await listen(again.url);
      try {
        await waitFor('the hello event', () => stream.events.length > 0, WAIT_MS);
      } finally {
        stream.close();
      }
      assert.equal((stream.events[0]!.data.errors as OverlayPayload).noGoodBuild, true, 'the overlay does not call the placeholder the last good build');
      assert.match(await (await fetch(`${again.url}/`)).text(), /<h1>Build failed<\/h1>/);
    } finally {
      await again.close();
    }
  });

  it('refuses to serve a folder inside the sources, since it deletes stray files there', async (t) => {
    const root = await copySite(t);
    await assert.rejects(
      serveWatch({ root, port: 0, host: '127.0.0.1', outDir: path.join(root, 'content'), level: 'quiet', handleSignals: false }),
      (error: unknown) => error instanceof DocsgenError && /content\/ is one the build reads its sources from/.test(error.message),
    );
    await unlink(path.join(root, 'site.config.ts'));
    await assert.rejects(
      serveWatch({ root, port: 0, host: '127.0.0.1', outDir: path.join(root, 'dist'), level: 'quiet', handleSignals: false }),
      (error: unknown) => error instanceof DocsgenError && /No site configuration found/.test(error.message),
    );
  });
});

describe('docsgen serve --watch, when the templates of docsgen change', () => {
  let docsgen: string;
  let root: string;
  let cli: ReturnType<typeof runCli>;
  let url: string;
  let stream: { events: LiveEvent[]; close(): void };

  const file = (rel: string) => path.join(docsgen, ...rel.split('/'));
  const save = (rel: string, text: string) => writeFile(file(rel), text);
  const edit = async (rel: string, change: (text: string) => string) => {
    const before = await readFile(file(rel), 'utf8');
    const after = change(before);
    assert.notEqual(after, before, `the edit of ${rel} changes nothing`);
    await save(rel, after);
    return before;
  };
  const page = async (route: string) => {
    const res = await fetch(`${url}${route}`);
    return { status: res.status, html: await res.text() };
  };
  const overlay = async (): Promise<OverlayPayload> => (await (await fetch(`${url}/__docsgen/errors`)).json()) as OverlayPayload;
  const eventsAfter = (count: number) => stream.events.slice(count);
  const restore = async (rel: string, original: string) => {
    await save(rel, original);
    await waitFor('the overlay to clear', async () => (await overlay()).errors.length === 0);
  };

  const cleanup = createCleanup();
  before(async () => {
    docsgen = await copyDocsgen(cleanup);
    root = await copySite(cleanup);
    cli = runCli(['serve', '--watch', '--port', '0', '--root', root], root, docsgen);
    await waitFor('the first build', () => /Watching /.test(cli.output()), 90_000);
    url = /at (http:\/\/localhost:\d+)/.exec(cli.output())?.[1] ?? assert.fail(cli.output());
    stream = await listen(url);
  });

  after(async () => {
    stream?.close();
    if (cli && cli.child.exitCode === null) {
      cli.child.kill('SIGINT');
      await Promise.race([cli.exited, new Promise((resolve) => setTimeout(resolve, WAIT_MS))]);
      if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
    }
    await cleanup.run();
  });

  it('loads a changed component afresh, and reports a template syntax error at its line', async () => {
    const footer = 'templates/components/Footer.tsx';
    const original = await edit(footer, (t) => t.replace('<p className="footer__copyright">{site.copyright}</p>', '<p className="footer__copyright">{site.copyright} · feito com docsgen</p>'));
    await waitFor('the changed footer on every page', async () => (await page('/docs/guia/segundo')).html.includes('· feito com docsgen'));
    assert.match((await page('/')).html, /· feito com docsgen/);

    await save(footer, original.replace('<footer className="footer">', '<footer className="footer">{'));
    const payload = await waitFor('the overlay payload', async () => ((await overlay()).errors.length > 0 ? overlay() : undefined));
    const error = payload.errors[0];
    assert.ok(error);
    assert.match(error.message, /Templates could not be compiled/);
    assert.match(error.file ?? '', /templates\/components\/Footer\.tsx$/);
    assert.ok(error.line !== undefined && error.excerpt, JSON.stringify(error));
    assert.match((await page('/')).html, /· feito com docsgen/, 'the last good output stays served');

    // A content edit while the template is broken must not hide the error.
    const doc = path.join(root, 'content/docs/guia/primeiro.mdx');
    await writeFile(doc, (await readFile(doc, 'utf8')).replace('Crie as credenciais', 'Crie já as credenciais'));
    await waitFor('a build of the content edit', () => /content\/docs\/guia\/primeiro\.mdx → build failed/.test(cli.output()));
    assert.ok((await overlay()).errors.length > 0, 'the template error stays until the template is fixed');

    const beforeRestore = cli.output().length;
    await restore(footer, original);
    await waitFor('the original footer', async () => !(await page('/')).html.includes('· feito com docsgen'));
    assert.match((await page('/docs/guia/primeiro')).html, /Crie já as credenciais/);
    // A build started for the content edit may already read the restored template; the
    // restore's own event still comes, and the next test's edit must not share its build.
    await waitFor("the restored template's own build", () => /Footer\.tsx[^\n]* → /.test(cli.output().slice(beforeRestore)));
  });

  it('swaps the stylesheet when only CSS changed', async () => {
    const before = /href="(\/assets\/styles-[A-Za-z0-9]+\.css)"/.exec((await page('/docs/guia/primeiro')).html)?.[1];
    assert.ok(before);
    const seen = stream.events.length;
    await edit('templates/styles/main.css', (t) => `${t}\n.docsgen-watch-test { outline: 3px solid rgb(1, 2, 3); }\n`);
    const swap = await waitFor('a css event', () => eventsAfter(seen).find((e) => e.event === 'css'));
    const after = (swap.data.swap as Record<string, string>)[before];
    assert.match(after ?? '', /^\/assets\/styles-[A-Za-z0-9]+\.css$/);
    assert.notEqual(after, before);
    assert.ok(!eventsAfter(seen).some((e) => e.event.startsWith('reload')), 'no page reloads for a CSS change');
    assert.match((await page('/docs/guia/primeiro')).html, new RegExp(`href="${after}"`));
    const css = await fetch(`${url}${after}`);
    assert.match(await css.text(), /docsgen-watch-test/);
    await waitFor('the old stylesheet to be deleted', async () => (await fetch(`${url}${before}`)).status === 404);
    assert.match(cli.output(), /templates\/styles\/main\.css → stylesheet swapped without a reload/);
  });
});

describe('docsgen serve --watch, when files are replaced, written in parts or linked', () => {
  let root: string;
  let watch: WatchHandle;
  const cleanup = createCleanup();
  /** Every payload the overlay would have shown: a build error shows at once, so the test must see each one. */
  const errorsShown: string[] = [];
  const lines: string[] = [];
  const file = (rel: string) => path.join(root, ...rel.split('/'));
  const page = async (route: string) => (await fetch(`${watch.url}${route}`)).text();
  const overlay = async (): Promise<OverlayPayload> => (await (await fetch(`${watch.url}/__docsgen/errors`)).json()) as OverlayPayload;
  /**
   * A settle time ten times the pause the tests make inside one write. The pause is a
   * timer in this process, which also runs the watch: a compile started by the first part
   * of the write can hold that timer back, and at 300 ms a busy machine once made the
   * pause longer than the settle time.
   */
  const SETTLE_MS = 1000;
  const PAUSE_IN_WRITE_MS = SETTLE_MS / 10;

  before(async () => {
    root = await copySite(cleanup);
    const record = (line: string) => {
      lines.push(line);
      if (/build failed/.test(line)) errorsShown.push(line);
    };
    watch = await serveWatch({ root, port: 0, host: '127.0.0.1', outDir: file('dist'), level: 'normal', write: record, writeError: record, handleSignals: false, settleMs: SETTLE_MS });
  });
  after(async () => {
    await watch?.close();
    await cleanup.run();
  });

  it('keeps watching site.config.ts after two quick replacements of it (cp, then sed -i)', async () => {
    const original = await readFile(file('site.config.ts'), 'utf8');
    await writeFile(file('orig.config.txt'), original);
    // Two rewrites in a row as a script does them: each replaces the file (a new inode).
    execFileSync('sh', ['-c', `for h in Um Dois; do cp orig.config.txt site.config.ts; sed -i "s/holder: 'Sorrix'/holder: 'Sorrix $h'/" site.config.ts; done`], { cwd: root });
    await waitFor('the second rewrite in the footer', async () => (await page('/')).includes('Copyright © 2025 Sorrix Dois'));
    await watch.idle();
    // chokidar watching the file itself saw nothing from here on.
    await writeFile(file('site.config.ts'), original.replace("holder: 'Sorrix'", "holder: 'Sorrix Três'"));
    await waitFor('a later edit of the config', async () => (await page('/')).includes('Copyright © 2025 Sorrix Três'));
    execFileSync('sh', ['-c', `sed -i "s/Sorrix Três/Sorrix Quatro/" site.config.ts`], { cwd: root });
    await waitFor('a later sed -i of the config', async () => (await page('/docs/introducao')).includes('Copyright © 2025 Sorrix Quatro'));
    await writeFile(file('site.config.ts'), original);
    await waitFor('the original config', async () => (await page('/')).includes('Copyright © 2025 Sorrix<'));
    await watch.idle();
  });

  it('builds a file written in place in two parts only once it is complete: no error flashes', async () => {
    const rel = 'content/docs/guia/primeiro.mdx';
    const before = await readFile(file(rel), 'utf8');
    const after = `${before}\nAperte <kbd>Ctrl</kbd> para copiar.\n`;
    const cut = after.indexOf('<kbd>Ct') + '<kbd>Ct'.length;
    const builds = watch.builds;
    // As an editor saving in place: truncate, write the first part, pause, write the rest.
    const handle = await open(file(rel), 'w');
    try {
      await handle.write(after.slice(0, cut));
      await handle.sync();
      // Longer than the quiet time that makes one build of a save's events, shorter than the settle time.
      await new Promise((resolve) => setTimeout(resolve, PAUSE_IN_WRITE_MS));
      await handle.write(after.slice(cut));
    } finally {
      await handle.close();
    }
    await waitFor('the complete edit to be served', async () => (await page('/docs/guia/primeiro')).includes('<kbd>Ctrl</kbd> para copiar'));
    await watch.idle();
    assert.deepEqual(errorsShown, [], 'no build read the half-written file');
    assert.deepEqual(await overlay(), { errors: [] });
    assert.ok(watch.builds > builds);
  });

  it('publishes a file added to static/.well-known/, and no other dotfile', async () => {
    await mkdir(file('static/.well-known'), { recursive: true });
    await writeFile(file('static/.secrets.yaml'), 'token: s3cr3t\n');
    await writeFile(file('static/.well-known/security.txt'), 'Contact: mailto:security@sorrix.example\n');
    await waitFor('the new .well-known file', () => existsSync(file('dist/.well-known/security.txt')));
    await watch.idle();
    assert.equal(existsSync(file('dist/.secrets.yaml')), false);
    assert.equal(await readFile(file('dist/.well-known/security.txt'), 'utf8'), 'Contact: mailto:security@sorrix.example\n');
    await rm(file('static/.well-known'), { recursive: true });
    await waitFor('the deleted .well-known file to go', () => !existsSync(file('dist/.well-known/security.txt')));
  });

  it('reports a symbolic link loop in content/ and recovers when it is removed', async () => {
    await symlink('.', file('content/docs/loop'));
    const payload = await waitFor('the overlay payload', async () => ((await overlay()).errors.length > 0 ? overlay() : undefined));
    assert.match(payload.errors.map((e) => e.message).join('\n'), /content\/docs\/loop is a symbolic link to \., a folder that contains the link/);
    assert.equal(await page('/docs/introducao').then((html) => html.includes('Texto original')), true, 'the last good build stays served');
    await unlink(file('content/docs/loop'));
    await waitFor('the overlay to clear', async () => (await overlay()).errors.length === 0);
    errorsShown.length = 0;
  });
});
