/**
 * `docsgen serve --watch`: build, serve, and rebuild on every change, for authors.
 *
 * The build core knows nothing of this: watch calls buildSite() with one long-lived
 * BuildSession (compiled MDX by content hash, the esbuild contexts, API documents, the
 * last render), compares the result with the served folder and writes only what changed
 * (./watch/output.ts), then tells open pages what to do over Server-Sent Events
 * (./watch/live.ts): reload when their page changed, swap the stylesheet when only CSS
 * changed, show an overlay when the build failed. One build runs at a time and the saves
 * made meanwhile become one more build. A failed build never stops the server: the last
 * good output stays served, the terminal prints the error, the overlay shows it.
 */
import { existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BuildSession, SiteOutput } from './build.ts';
import { loadConfig, type SiteConfig } from './config.ts';
import { DocsgenError, DocsgenErrors, codeExcerpt, formatAnyError, isDocsgenError } from './errors.ts';
import { createLogger, formatMs, type Logger, type LogLevel } from './log.ts';
import { TEMPLATES_DIR } from './paths.ts';
import { startServer, type RunningServer } from './serve.ts';
import { bundleLiveReloadClient, createLiveReload, type LiveReload, type OverlayError, type OverlayPayload } from './watch/live.ts';
import type { MirrorChange } from './watch/output.ts';
import type { SearchIndexOptions } from './stages/search-index.ts';
import type { TemplateLoader } from './watch/templates.ts';

export interface WatchOptions {
  root: string;
  port: number;
  host: string;
  /** The served folder, kept equal to the last good build. */
  outDir: string;
  level: LogLevel;
  /** Where terminal lines go (tests capture them); default stdout and stderr. */
  write?: (line: string) => void;
  writeError?: (line: string) => void;
  /** Stop on Ctrl+C (SIGINT) and SIGTERM and exit the process, as the CLI does. Default true; tests call close(). */
  handleSignals?: boolean;
  /** Quiet time after a change before building, so the several events of one save make one build. */
  debounceMs?: number;
  /** How long a changed file must stay unmodified before a build reads it (an editor may write it in place, in parts). */
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

const DEFAULT_DEBOUNCE_MS = 10;
/** chokidar ignores a second change to a file this soon after the first. */
const CHANGE_THROTTLE_MS = 50;
/** Longest that background work (the search index) waits for the server to finish answering, per pause. */
const BACKGROUND_WAIT_MS = 200;
/** Watched in the site folder besides the folders the config names; docsgen's templates/ are watched too. */
const WATCHED = ['content', 'static', 'openapi', 'site.config.ts'];

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
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  const configFile = path.join(root, 'site.config.ts');
  if (!existsSync(configFile)) {
    throw new DocsgenError(`No site configuration found at ${displayPath(configFile)}.`, {
      hint: 'Run docsgen serve --watch from the site folder, or pass --root with the folder holding site.config.ts.',
    });
  }
  checkOutDir(outDir, root);
  /** No earlier output to serve: a placeholder page carries the overlay until a build succeeds. */
  let placeholder = !existsSync(path.join(outDir, 'index.html'));
  if (placeholder) await writePlaceholder(outDir);

  // The server comes first: a port in use is reported at once, and the last output is
  // served while the first build runs.
  let config: SiteConfig | undefined;
  let server: RunningServer;
  // Until the config is loaded, the server serves the base URL the last output was built for.
  const live = createLiveReload(bundleLiveReloadClient(), { host: options.host, baseUrl: () => config?.baseUrl ?? server.baseUrl() });
  try {
    server = await startServer({ dir: outDir, port: options.port, host: options.host, middleware: live.middleware, transformHtml: live.transformHtml, baseUrl: () => config?.baseUrl });
  } catch (error) {
    live.close();
    throw error;
  }
  const shownUrl = server.url.replace('//127.0.0.1:', '//localhost:');
  logger.info(`docsgen: serving ${displayPath(outDir)}/ at ${shownUrl} — building…`);

  // The build core loads after the server listens: it is most of the start-up time.
  const modules = await Promise.all([import('./build.ts'), import('./watch/templates.ts'), import('./watch/output.ts'), import('chokidar')]).catch(
    async (error: unknown) => {
      live.close();
      await server.close();
      throw error;
    },
  );
  const [{ buildSite, createBuildSession, defaultCacheDir, disposeBuildSession }, { createTemplateLoader }, { createOutputMirror, routeOfFile }, chokidar] = modules;
  /** Made with the first config: compiled MDX is also kept on disk, so the next start is quick. */
  let session: BuildSession | undefined;
  /** Starts compiling a saved document during the debounce; loaded with the first build. */
  let precompile: ((cache: BuildSession['compile'], file: string, source: string) => void) | undefined;
  const mirror = createOutputMirror(outDir);
  const templates: TemplateLoader = createTemplateLoader(TEMPLATES_DIR);
  /** Set by a change, cleared by the build that used it: a failed reload is retried by the next build. */
  let configStale = true;
  let templatesStale = false;
  let errors: OverlayPayload | undefined;
  let builds = 0;
  let closed = false;

  // Dot names in the static folder may be published (`staticDotfiles`, .well-known/ by
  // default), so they are watched there; whether one is published is the build's to decide.
  const inStatic = (file: string) => file.startsWith((config?.dirs.static ?? path.join(root, 'static')) + path.sep);
  const ignored = (file: string) => {
    const base = path.basename(file);
    return (
      (base.startsWith('.') && (base === '.git' || !inStatic(file))) ||
      base === 'node_modules' ||
      base.endsWith('~') ||
      /\.(swp|swx|swo|tmp|bak)$/.test(base) ||
      base === '4913' || // vim's probe file
      file === outDir ||
      file.startsWith(outDir + path.sep)
    );
  };
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

  // ------------------------------------------------------------------ queue
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let finishing: Promise<void> = Promise.resolve();

  /** When the first change of the batch waiting to be built was seen: the terminal times from there. */
  let pendingSince: number | undefined;
  const onChange = (file: string) => {
    mirror.interrupt();
    if (closed) return;
    pendingSince ??= performance.now();
    pending.add(file);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      kick();
    }, debounceMs);
  };
  for (const event of ['add', 'unlink', 'addDir', 'unlinkDir'] as const) watcher.on(event, onChange);
  for (const event of ['add', 'unlink'] as const) configWatcher.on(event, onChange);
  // chokidar drops a change that follows another on the same file within 50 ms (its
  // throttle), so a save right after a save would never be built. A look at the file just
  // after that window catches it.
  const trailing = new Map<string, NodeJS.Timeout>();
  /** "mtime:size" of each changed file as the build that took it found it. */
  const builtAs = new Map<string, string>();
  const signature = (info: Stats) => `${info.mtimeMs}:${info.size}`;
  const onFileChange = (file: string, stats?: Stats) => {
    // Only the first save of a burst: compiling each one would only delay the build that takes them all.
    const burst = pending.size > 0;
    onChange(file);
    if (!burst && !running && session && precompile && /\.mdx?$/.test(file)) {
      // Read at once, not through the thread pool: this is the start of the edit's critical path.
      const source = readFileIfThere(file);
      if (source !== undefined) precompile(session.compile, file, source);
    }
    clearTimeout(trailing.get(file));
    const seen = stats ? signature(stats) : undefined;
    const check = setTimeout(() => {
      trailing.delete(file);
      void stat(file).then(
        (now) => {
          const current = signature(now);
          if (current !== seen && current !== builtAs.get(file)) onFileChange(file, now);
        },
        () => undefined,
      );
    }, CHANGE_THROTTLE_MS + 10);
    check.unref();
    trailing.set(file, check);
  };
  watcher.on('change', onFileChange);
  configWatcher.on('change', onFileChange);

  function kick(): void {
    if (running || closed || pending.size === 0) return;
    const batch = pending;
    const since = pendingSince;
    pending = new Set();
    pendingSince = undefined;
    const build = async () => {
      await settled(batch, settleMs, () => closed);
      for (const file of batch) {
        const info = statSync(file, { throwIfNoEntry: false });
        if (info) builtAs.set(file, signature(info));
        else builtAs.delete(file);
      }
      await rebuild(batch, false, since);
    };
    // Changes seen meanwhile wait for their own quiet time (the timer), or are taken at once if it already passed.
    running = build().finally(() => {
      running = undefined;
      if (!timer) kick();
    });
  }

  /** The server answered what it was asked, or a slow download has had its share of time. */
  const serverIdle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, BACKGROUND_WAIT_MS);
      void server.idle().then(() => {
        clearTimeout(timer);
        resolve();
      });
    });

  // ---------------------------------------------------------------- rebuild
  /** `since`: when the change was seen, so the time printed covers the wait for the save to settle too. */
  async function rebuild(batch: ReadonlySet<string>, first = false, since?: number): Promise<void> {
    const started = since ?? performance.now();
    const what = first ? 'first build' : describe(batch, root);
    for (const file of batch) {
      if (file === configFile || file === config?.configFile) configStale = true;
      else if (isTemplateModule(file)) templatesStale = true;
    }
    const buildLogger = createLogger({ level: options.level === 'verbose' ? 'verbose' : 'quiet', write: options.write, writeError: options.writeError });
    try {
      if (configStale || !config) {
        const next = await buildLogger.task('config', () => loadConfig(root));
        if (config) watcher.add(watchedFolders(root, next).filter((target) => !watchedFolders(root, config).includes(target)));
        config = next;
        configStale = false;
      }
      session ??= createBuildSession({ incremental: true, cacheDir: defaultCacheDir(config) });
      precompile ??= (await import('./stages/compile.ts')).precompile;
      if (templatesStale) {
        session.render = await buildLogger.task('templates', () => templates.load());
        templatesStale = false;
      }
      const site = await buildSite(config, { logger: buildLogger, session, searchIndex: 'later', drafts: true });
      if (closed) return;
      // The search index is made after the browsers were told, in the gaps between the requests of the pages they reload.
      const later = site.searchIndex;
      const output = later ? { ...site, searchIndex: (options?: SearchIndexOptions) => later({ ...options, yieldTo: serverIdle }) } : site;
      const { change, finish } = await buildLogger.task('write', () => mirror.sync(output, config!));
      const ms = performance.now() - started;
      const recovered = errors !== undefined;
      errors = undefined;
      live.setErrors(undefined);
      if (recovered) live.send({ type: 'ok' });
      if (first) {
        if (change.routes.length > 0) live.send({ type: 'reload', routes: change.routes });
      } else {
        notify(live, change, site);
      }
      // Search index, sitemap, feeds and stale files: written while the next build may already run.
      finishing = finish().catch((error: unknown) => logger.error(`${clock()} ${formatAnyError(error)}`));
      builds++;
      placeholder = false;
      if (first) {
        logger.info(`Built ${site.pages.length} pages in ${formatMs(ms)} (${stages(buildLogger)}).`);
        return;
      }
      logger.info(`${clock()} ${what} → ${summary(change, routeOfFile)} in ${formatMs(ms)} (${stages(buildLogger)})${recovered ? '; the error is fixed' : ''}.`);
    } catch (error) {
      if (closed) return;
      builds++;
      const report = await explain(error, root);
      errors = report.payload;
      live.setErrors(report.payload);
      live.send({ type: 'build-error', payload: report.payload });
      const ms = performance.now() - started;
      const serving = placeholder ? 'serving a placeholder page with the error until it is fixed' : 'still serving the last good build';
      logger.error(`${clock()} ${what} → build failed in ${formatMs(ms)}; ${serving}.\n\n${report.text}\n`);
    }
  }

  // --------------------------------------------------------------- shutdown
  let closing: Promise<void> | undefined;
  async function shutdown(waitForBuild: boolean): Promise<void> {
    closed = true;
    if (timer) clearTimeout(timer);
    for (const check of trailing.values()) clearTimeout(check);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await Promise.all([watcher.close(), configWatcher.close()]);
    live.close();
    await server.close();
    if (waitForBuild) {
      await running?.catch(() => undefined);
      await finishing;
    }
    if (session) await disposeBuildSession(session);
    await templates.dispose();
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

  const firstBuild = rebuild(new Set(), true);
  running = firstBuild
    .then(() => warmUp(session, () => closed || pending.size > 0))
    .catch(() => undefined)
    .finally(() => {
      running = undefined;
      if (!timer) kick();
    });
  await firstBuild;
  logger.info(`Watching ${watchedList(root, config)} — open ${shownUrl} and edit a file. Ctrl+C to stop.`);

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
      while (timer || running || pending.size > 0) {
        if (running) await running.catch(() => undefined);
        else await new Promise((resolve) => setTimeout(resolve, debounceMs));
      }
      await finishing;
    },
    close() {
      closing ??= shutdown(true);
      return closing;
    },
  };
}

/**
 * When the first build took every document from the disk cache, the highlighter and the
 * MDX compiler have not run yet, and the first edits would pay for starting them and for
 * the JIT's first passes over their code (a third of a second, then tens of milliseconds
 * per edit). Compiling a document of the site a few times right after the first build
 * pays it while the author is still reading; a save meanwhile stops it. The scratch cache keeps it out of the
 * real caches; only the highlighter, which holds no per-site state, is handed over.
 */
async function warmUp(session: BuildSession | undefined, interrupted: () => boolean): Promise<void> {
  if (!session || session.compile.highlighter) return;
  const { compileMdx, createCompileCache } = await import('./stages/compile.ts');
  const scratch = createCompileCache();
  const sources = [...(session.lastRender?.sources ?? new Map<string, string>())].filter(([file]) => /\.mdx?$/.test(file)).map(([, source]) => source);
  // A document of typical length: the longest would keep the compiler busy for a second.
  const sample = sources.sort((a, b) => a.length - b.length)[Math.floor(sources.length / 2)] ?? '## Warm-up\n\nText.\n\n```text\nwarm-up\n```\n';
  for (let run = 0; run < WARM_UP_RUNS && !interrupted(); run++) {
    const source = `${sample}\n\nWarm-up ${run}.\n`;
    await compileMdx({ file: path.join(process.cwd(), 'warm-up.mdx'), relFile: 'warm-up.mdx', source }, { routeOfFile: () => '/', cache: scratch }).catch(() => undefined);
  }
  session.compile.highlighter ??= scratch.highlighter;
}

const WARM_UP_RUNS = 4;

/** The folders and files to watch: the conventional ones, plus wherever the config points. */
function watchTargets(root: string, config?: SiteConfig): string[] {
  const targets = new Set([...WATCHED.map((w) => path.join(root, w)), TEMPLATES_DIR]);
  if (config) {
    for (const dir of Object.values(config.dirs)) targets.add(dir);
    targets.add(config.configFile);
    for (const ref of config.apiReferences) targets.add(path.dirname(path.resolve(config.root, ref.spec)));
  }
  // A folder inside another watched folder is watched already.
  const all = [...targets];
  return all.filter((t) => !all.some((other) => other !== t && t.startsWith(other + path.sep))).sort();
}

/** What the main watcher watches: the targets but the config file, which has a watcher of its own. */
function watchedFolders(root: string, config?: SiteConfig): string[] {
  const configFiles = new Set([path.join(root, 'site.config.ts'), config?.configFile]);
  return watchTargets(root, config).filter((target) => !configFiles.has(target));
}

/**
 * Resolves once no file of `batch` was modified during the last `quietMs`: an editor that
 * writes a file in place truncates it first, and a build reading it then would show an
 * error for a file that is only half written. The file's mtime tells how long it has been
 * unmodified, so a file saved a while ago costs no wait. Gives up after MAX_SETTLE_FACTOR
 * times `quietMs` (a file written continuously, an mtime in the future).
 */
async function settled(batch: ReadonlySet<string>, quietMs: number, stop: () => boolean): Promise<void> {
  const deadline = performance.now() + quietMs * MAX_SETTLE_FACTOR;
  while (!stop() && performance.now() < deadline) {
    const now = Date.now();
    let youngest = Infinity;
    for (const file of batch) {
      const info = statSync(file, { throwIfNoEntry: false });
      if (info?.isFile()) youngest = Math.min(youngest, now - info.mtimeMs);
    }
    if (youngest >= quietMs) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(quietMs, Math.max(1, quietMs - youngest))));
  }
}

const DEFAULT_SETTLE_MS = 25;
const MAX_SETTLE_FACTOR = 40;

/** "content/, openapi/, site.config.ts, static/ and templates/", as the author sees them. */
function watchedList(root: string, config: SiteConfig | undefined): string {
  const shown = watchTargets(root, config)
    .filter((target) => existsSync(target))
    .map((target) => (path.extname(target) ? shownPath(target, root) : `${shownPath(target, root)}/`))
    // The site's own folders first, then docsgen's templates (shown absolute when the site lives elsewhere).
    .sort((a, b) => Number(path.isAbsolute(a)) - Number(path.isAbsolute(b)) || a.localeCompare(b));
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : shown.join('');
}

function readFileIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // Gone again (a rename, an editor's temporary file): the build sees what is there.
    return undefined;
  }
}

/** Layouts, components and templates/shared/: the templates rendered in Node. client/ and styles/ are the browser bundle. */
function isTemplateModule(file: string): boolean {
  if (!file.startsWith(TEMPLATES_DIR + path.sep)) return false;
  const [top] = path.relative(TEMPLATES_DIR, file).split(path.sep);
  return top !== 'client' && top !== 'styles';
}

/** Refuses an output folder whose synchronisation (which deletes stray files) would hit the sources. */
function checkOutDir(outDir: string, root: string): void {
  const within = (dir: string, file: string) => file === dir || file.startsWith(dir + path.sep);
  const clash = within(outDir, root) ? 'holds the site itself' : [...WATCHED.map((w) => path.join(root, w)), TEMPLATES_DIR].find((dir) => within(dir, outDir));
  if (clash) {
    throw new DocsgenError(`Cannot serve ${displayPath(outDir)} in watch mode: it ${typeof clash === 'string' && clash.startsWith('holds') ? clash : `is inside ${displayPath(clash)}`}.`, {
      hint: 'Watch mode deletes files of the served folder that the build does not produce. Pass a separate folder with --dir, such as dist.',
    });
  }
}

/** A page to serve until the first build is written, so the server can start at once and show the overlay. */
async function writePlaceholder(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  const page = (title: string) =>
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>` +
    `<body style="font-family: system-ui, sans-serif; margin: 3rem auto; max-width: 40rem; padding: 0 1rem"><h1>${title}</h1>` +
    '<p>docsgen is building the site. This page reloads by itself when the build is done.</p></body></html>\n';
  await writeFile(path.join(outDir, 'index.html'), page('Building…'));
  await writeFile(path.join(outDir, '404.html'), page('Building…'));
}

function notify(live: LiveReload, change: MirrorChange, site: SiteOutput): void {
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

function summary(change: MirrorChange, routeOfFile: (file: string) => string): string {
  if (change.written.length === 0 && change.deleted.length === 0) return 'no output changed';
  const removed = new Set(change.deleted.filter((f) => f.endsWith('.html')).map(routeOfFile));
  const updated = change.routes.filter((r) => !removed.has(r));
  const list = (routes: string[]) => (routes.length <= 3 ? routes.join(', ') : `${routes.slice(0, 3).join(', ')} and ${routes.length - 3} more`);
  const parts: string[] = [];
  if (change.cssSwap) parts.push(`stylesheet swapped without a reload (${Object.values(change.cssSwap).join(', ')})`);
  else if (updated.length > 0) parts.push(`${updated.length === 1 ? 'page' : `${updated.length} pages`} ${list(updated)} updated`);
  if (removed.size > 0) parts.push(`${list([...removed])} removed`);
  if (parts.length === 0) parts.push(`${change.written.length + change.deleted.length} files updated`);
  return parts.join('; ');
}

function stages(logger: Logger): string {
  return logger.timings.map((t) => `${t.name} ${formatMs(t.ms)}`).join(' · ');
}

/** Relative to the site when inside it (content/docs/a.mdx), else as is (docsgen's templates, for a site elsewhere). */
function shownPath(file: string, root: string): string {
  const rel = path.relative(root, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
}

function describe(batch: ReadonlySet<string>, root: string): string {
  const files = [...batch].map((f) => shownPath(f, root)).sort();
  return files.length <= 3 ? files.join(', ') : `${files.slice(0, 3).join(', ')} and ${files.length - 3} more`;
}

function clock(): string {
  return new Date().toTimeString().slice(0, 8);
}

function displayPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

/**
 * The terminal text and the overlay payload of a failed build. Problems that name a
 * line but carry no excerpt (a broken link, say) get the offending lines read from the
 * file, so the overlay and the terminal can show them.
 */
async function explain(error: unknown, root: string): Promise<{ text: string; payload: OverlayPayload }> {
  if (!isDocsgenError(error)) {
    const message = error instanceof Error ? error.message : String(error);
    const stack = error instanceof Error ? error.stack : undefined;
    return {
      text: formatAnyError(error),
      payload: { errors: [{ message: `Unexpected error in docsgen (please report it): ${message}`, location: '', excerpt: stack }] },
    };
  }
  const list = error instanceof DocsgenErrors ? error.errors : [error];
  const enriched = await Promise.all(list.map((e) => withExcerpt(e, root)));
  const text = error instanceof DocsgenErrors ? formatAnyError(new DocsgenErrors(error.message, enriched)) : formatAnyError(enriched[0]);
  return {
    text,
    payload: {
      summary: error instanceof DocsgenErrors ? error.message : undefined,
      errors: enriched.map(
        (e): OverlayError => ({ message: e.message, location: e.location, file: e.file, line: e.line, column: e.column, excerpt: e.excerpt, hint: e.hint }),
      ),
    },
  };
}

async function withExcerpt(error: DocsgenError, root: string): Promise<DocsgenError> {
  if (error.excerpt || !error.file || error.line === undefined) return error;
  for (const candidate of [path.resolve(root, error.file), path.resolve(error.file)]) {
    const source = await readFile(candidate, 'utf8').catch(() => undefined);
    if (source === undefined) continue;
    return new DocsgenError(error.message, {
      file: error.file,
      line: error.line,
      column: error.column,
      hint: error.hint,
      excerpt: codeExcerpt(source, error.line, error.column),
      cause: error.cause,
    });
  }
  return error;
}
