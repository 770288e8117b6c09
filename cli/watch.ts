/**
 * `docsgen serve --watch`: build, serve, and rebuild on every change, for authors.
 *
 * The build core knows nothing of this: watch calls buildSite() with one long-lived
 * BuildSession (compiled MDX by content hash, the esbuild contexts, API documents, the
 * last render), compares the result with the served folder and writes only what changed
 * (./watch/served-output.ts), then tells open pages what to do over Server-Sent Events
 * (./watch/live.ts): reload when their page changed, swap the stylesheet when only CSS
 * changed, show an overlay when the build failed. One build runs at a time and the saves
 * made meanwhile become one more build (./watch/rebuild-queue.ts). A failed build never
 * stops the server: the last good output stays served, the terminal prints the error, the
 * overlay shows it (./watch/report.ts). What lasts from one build to the next is the dev
 * session's (./watch/dev-session.ts); this module wires them to the server and the file watchers.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SiteOutput } from './build.ts';
import type { SiteConfig } from './config.ts';
import { DocsgenError, formatAnyError } from './errors.ts';
import { createLogger, formatMs, shownPath } from './log.ts';
import type { DevSessionOptions } from './watch/dev-session.ts';
import { TEMPLATES_DIR } from './paths.ts';
import { startServer, type RunningServer } from './serve.ts';
import { PLACEHOLDER_ATTRIBUTE, PLACEHOLDER_TEXT, bundleLiveReloadClient, createLiveReload, type LiveReload, type PlaceholderState } from './watch/live.ts';
import { createRebuildQueue } from './watch/rebuild-queue.ts';
import { createErrorReporter, stageTimes, successLine } from './watch/report.ts';
import { conventionalSources, isIgnored, watchedFolders, watchedList } from './watch/watched-files.ts';
import { checkOutputFolder, makeOutputFolder } from './output-folder.ts';
import type { OutputChange } from './watch/served-output.ts';

/** `outDir` is the served folder, kept equal to the last good build; `write` and `writeError` take terminal lines (tests capture them), default stdout and stderr. */
export interface WatchOptions extends Pick<DevSessionOptions, 'root' | 'outDir' | 'level' | 'write' | 'writeError'> {
  port: number;
  host: string;
  /** Stop on Ctrl+C (SIGINT) and SIGTERM and exit the process, as the CLI does. Default true; tests call close(). */
  handleSignals?: boolean;
  /** Quiet time after a change before building, so the several events of one save make one build. */
  debounceMs?: number;
  /** How long a changed file must have stayed unmodified before a build that read it is shown (an editor may write it in place, in parts). */
  settleMs?: number;
}

export interface WatchHandle {
  /** http://HOST:PORT actually bound. */
  url: string;
  port: number;
  /** Builds finished since start, failed ones included. */
  readonly builds: number;
  /** Pages connected for live reload. */
  readonly liveClients: number;
  /** Resolves once no change waits and no build runs. */
  idle(): Promise<void>;
  /** Stops watching, serving and building; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts watch mode and resolves once the server listens and the first build finished
 * (successfully or not: a broken site is served with its overlay). Rejects only when it
 * cannot start at all: no site.config.ts, an output folder that would overwrite the
 * sources, or a port in use.
 */
export async function serveWatch(options: WatchOptions): Promise<WatchHandle> {
  const root = path.resolve(options.root);
  const outDir = path.resolve(options.outDir);
  const logger = createLogger({ level: options.level, write: options.write, writeError: options.writeError });
  const configFile = path.join(root, 'site.config.ts');
  if (!existsSync(configFile)) {
    throw new DocsgenError(`No site configuration found at ${shownPath(configFile, process.cwd())}.`, {
      hint: 'Run docsgen serve --watch from the site folder, or pass --root with the folder holding site.config.ts.',
    });
  }
  checkOutputFolder(outDir, { root, sources: conventionalSources(root), option: '--dir' });
  /**
   * No earlier output to serve: a placeholder page carries the overlay until a build
   * succeeds. The placeholder of an earlier run (stopped before a build succeeded) is no
   * output either.
   */
  let placeholder = !holdsBuild(outDir);
  if (placeholder) await writePlaceholder(outDir);

  // The server comes first: a port in use is reported at once, and the last output is
  // served while the first build runs.
  /** The dev session, made once the server runs; its config says the base URL. */
  const current: { dev?: { config?: SiteConfig } } = {};
  const config = () => current.dev?.config;
  let server: RunningServer;
  // Until the config is loaded, the server serves the base URL the last output was built for.
  const live = createLiveReload(bundleLiveReloadClient(), { host: options.host, baseUrl: () => config()?.baseUrl ?? server.baseUrl() });
  try {
    server = await startServer({ dir: outDir, port: options.port, host: options.host, middleware: live.middleware, transformHtml: live.transformHtml, baseUrl: () => config()?.baseUrl });
  } catch (error) {
    live.close();
    throw error;
  }
  const shownUrl = server.url.replace('//127.0.0.1:', '//localhost:');
  logger.info(`docsgen: serving ${shownPath(outDir, process.cwd())}/ at ${shownUrl} — building…`);

  // The build core loads after the server listens: it is most of the start-up time.
  const modules = await Promise.all([import('./watch/dev-session.ts'), import('chokidar')]).catch(async (error: unknown) => {
    live.close();
    await server.close();
    throw error;
  });
  const [{ createDevSession }, chokidar] = modules;
  const dev = createDevSession({
    root,
    outDir,
    templatesDir: TEMPLATES_DIR,
    level: options.level,
    write: options.write,
    writeError: options.writeError,
    serverIdle: () => serverIdle(server),
  });
  current.dev = dev;
  const reporter = createErrorReporter({ root, logger, live });
  let builds = 0;
  /** The last build's background writes (search index, sitemap, stale files). */
  let finishing: Promise<void> = Promise.resolve();

  const ignored = (file: string) => isIgnored(file, { outDir, staticDir: dev.config?.dirs.static ?? path.join(root, 'static') });
  // Links are not followed: a link to a folder that holds it (`ln -s . content/docs/loop`)
  // would be walked for ever. The build reports such a link, and follows the others itself.
  const watcher = chokidar.watch(watchedFolders(root), { ignoreInitial: true, ignored, atomic: true, followSymlinks: false });
  // The config file is watched through its folder: chokidar watching the file itself
  // stops for good after two quick replacements of it (`cp orig site.config.ts; sed -i …`).
  const configWatcher = chokidar.watch(path.dirname(configFile), {
    ignoreInitial: true,
    atomic: true,
    depth: 0,
    ignored: (file: string) => file !== path.dirname(configFile) && file !== configFile,
  });
  const watchFailed = (error: unknown) => logger.warn(`watching files failed: ${error instanceof Error ? error.message : String(error)}`);
  watcher.on('error', watchFailed);
  configWatcher.on('error', watchFailed);
  await Promise.all([watcher, configWatcher].map((w) => new Promise<void>((resolve) => w.once('ready', () => resolve()))));

  /** Builds, tells open pages and the terminal; `since`: when the change was seen, so the time printed covers the wait for the save to settle too. */
  async function rebuild(batch: ReadonlySet<string>, since: number, settled?: () => Promise<boolean>): Promise<void> {
    const before = dev.config;
    const outcome = await dev.rebuild(batch, settled);
    if ('closed' in outcome || 'superseded' in outcome) return;
    builds++;
    const report = { batch, ms: performance.now() - since, timings: outcome.timings };
    if (dev.config && before && dev.config !== before) {
      const known = watchedFolders(root, before);
      watcher.add(watchedFolders(root, dev.config).filter((target) => !known.includes(target)));
    }
    if (!outcome.ok) {
      if (placeholder) await writePlaceholder(outDir, 'failed');
      await reporter.failed(outcome.error, report, placeholder);
      return;
    }
    const recovered = reporter.succeeded();
    // Before the reload below: a page whose stream connects after it hears this in its hello.
    if (placeholder) live.setBuilt();
    const first = batch.size === 0;
    if (first) {
      if (outcome.change.routes.length > 0) live.send({ type: 'reload', routes: outcome.change.routes });
    } else {
      notify(live, outcome.change, outcome.site);
    }
    // Search index, sitemap, feeds and stale files: written while the next build may already run.
    finishing = outcome.finish().catch((error: unknown) => logger.error(`${new Date().toTimeString().slice(0, 8)} ${formatAnyError(error)}`));
    placeholder = false;
    if (first) logger.info(`Built ${outcome.site.pages.length} pages in ${formatMs(report.ms)} (${stageTimes(report.timings)}).`);
    else logger.info(successLine(outcome.change, report, root, recovered));
  }

  const queue = createRebuildQueue({
    debounceMs: options.debounceMs ?? DEFAULT_DEBOUNCE_MS,
    settleMs: options.settleMs ?? DEFAULT_SETTLE_MS,
    build: rebuild,
    onChange: () => dev.interrupt(),
    onFirstSave: (file) => dev.precompile(file),
    onError: (error) => logger.error(formatAnyError(error)),
  });
  for (const event of ['add', 'unlink', 'addDir', 'unlinkDir'] as const) watcher.on(event, queue.added);
  for (const event of ['add', 'unlink'] as const) configWatcher.on(event, queue.added);
  watcher.on('change', queue.modified);
  configWatcher.on('change', queue.modified);

  // --------------------------------------------------------------- shutdown
  let closing: Promise<void> | undefined;
  async function shutdown(waitForBuild: boolean): Promise<void> {
    const stopped = queue.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await Promise.all([watcher.close(), configWatcher.close()]);
    live.close();
    await server.close();
    if (waitForBuild) {
      await stopped;
      await finishing;
    }
    await dev.dispose();
  }
  function onSignal(): void {
    // A second Ctrl+C while closing exits at once.
    process.once('SIGINT', () => process.exit(130));
    logger.info('\ndocsgen: stopping…');
    closing ??= shutdown(false);
    closing.then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error(formatAnyError(error));
        process.exit(1);
      },
    );
  }
  if (options.handleSignals !== false) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }

  const firstBuild = rebuild(new Set(), performance.now());
  queue.run(async () => {
    await firstBuild;
    await dev.warmUp(() => closing !== undefined || queue.waiting > 0);
  });
  await firstBuild;
  logger.info(`Watching ${watchedList(root, dev.config)} — open ${shownUrl} and edit a file. Ctrl+C to stop.`);

  return {
    url: server.url,
    port: server.port,
    get builds() {
      return builds;
    },
    get liveClients() {
      return live.clients;
    },
    async idle() {
      await queue.idle();
      await finishing;
    },
    close() {
      closing ??= shutdown(true);
      return closing;
    },
  };
}

const DEFAULT_DEBOUNCE_MS = 10;
const DEFAULT_SETTLE_MS = 25;
/** Longest that background work (the search index) waits for the server to finish answering, per pause. */
const BACKGROUND_WAIT_MS = 200;
/** The server answered what it was asked, or a slow download has had its share of time. */
function serverIdle(server: RunningServer): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, BACKGROUND_WAIT_MS);
    void server.idle().then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * A page to serve until the first build is written, so the server can start at once and
 * show the overlay; once a first build failed, it says so instead of "building".
 */
/** Whether `outDir` holds a build: a home page that is not watch mode's placeholder. */
function holdsBuild(outDir: string): boolean {
  const home = path.join(outDir, 'index.html');
  // The placeholder marks its <html> tag, the first thing in it (writePlaceholder below).
  return existsSync(home) && !new RegExp(`^<!DOCTYPE html><html[^>]* ${PLACEHOLDER_ATTRIBUTE}="`).test(readFileSync(home, 'utf8').slice(0, 200));
}

async function writePlaceholder(outDir: string, state: PlaceholderState = 'building'): Promise<void> {
  // Marked as docsgen's: the server may stop before a first build is written, and the next start must accept the folder.
  await makeOutputFolder(outDir);
  const { title, text } = PLACEHOLDER_TEXT[state];
  // The live-reload script finds the state, the heading and the paragraph here (templates/client/live-reload.ts).
  const page =
    `<!DOCTYPE html><html lang="en" ${PLACEHOLDER_ATTRIBUTE}="${state}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>` +
    `<body style="font-family: system-ui, sans-serif; margin: 3rem auto; max-width: 40rem; padding: 0 1rem"><h1>${title}</h1>` +
    `<p>${text}</p></body></html>\n`;
  await writeFile(path.join(outDir, 'index.html'), page);
  await writeFile(path.join(outDir, '404.html'), page);
}

function notify(live: LiveReload, change: OutputChange, site: SiteOutput): void {
  if (change.reloadAll) live.send({ type: 'reload-all' });
  else if (change.cssSwap) live.send({ type: 'css', swap: change.cssSwap });
  else if (change.routes.length > 0) live.send({ type: 'reload', routes: change.routes, pages: pushedPages(change.routes, site, live) });
}

/** Pages sent along with a reload: an edit usually changes one or two, and the open page then needs no request. */
const PUSHED_PAGES = 4;

function pushedPages(routes: readonly string[], site: SiteOutput, live: LiveReload): Record<string, string> | undefined {
  if (routes.length > PUSHED_PAGES) return undefined;
  const pages: Record<string, string> = {};
  for (const page of site.pages) if (routes.includes(page.route)) pages[page.route] = live.transformHtml(page.html);
  return pages;
}
