/**
 * What `serve --watch` keeps from one build to the next: the config, the build session
 * (compiled MDX by content hash, the esbuild contexts, API documents, the last render),
 * the templates as last loaded, and the served folder's writer. rebuild() runs the same
 * buildSite() as `docsgen build` and writes the result through the one writer; it never
 * throws: a failed build is an outcome, and the last good output stays served.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSite, createBuildSession, defaultCacheDir, disposeBuildSession, type BuildSession, type SiteOutput } from '../build.ts';
import { loadConfig, type SiteConfig } from '../config.ts';
import { createLogger, type LogLevel, type StageTiming } from '../log.ts';
import { reportSourceChanges } from '../source-texts.ts';
import { ensureLanguage } from '../mdx/rehype-highlight.ts';
import { compileMdx, createCompileCache, getHighlighter, precompile, THEMES, type CompileCache } from '../stages/compile.ts';
import type { SearchIndexOptions } from '../stages/search-index.ts';
import { createServedOutput, type OutputChange } from './served-output.ts';
import { createTemplateLoader } from './templates.ts';

export interface DevSessionOptions {
  root: string;
  /** The served folder. */
  outDir: string;
  /** docsgen's templates folder: a change below it (but client/ and styles/, the browser bundle) reloads the templates. */
  templatesDir: string;
  level: LogLevel;
  write?: (line: string) => void;
  writeError?: (line: string) => void;
  /** Resolves when the server has answered what it was asked: the search index is made in the gaps. */
  serverIdle(): Promise<void>;
}

export type RebuildOutcome =
  | { ok: true; site: SiteOutput; change: OutputChange; timings: StageTiming[]; finish: () => Promise<void> }
  | { ok: false; error: unknown; timings: StageTiming[] }
  /** The session was disposed while building. */
  | { ok: false; closed: true }
  /** A file changed after the build read it: nothing was written, a newer build follows. */
  | { ok: false; superseded: true };

export interface DevSession {
  /** The config of the last build that could load it. */
  readonly config: SiteConfig | undefined;
  /**
   * Builds the site with `changed` files (none: the first build) and writes it into the
   * served folder; `settled`, when given, is asked first, and a false answer writes nothing.
   */
  rebuild(changed: ReadonlySet<string>, settled?: () => Promise<boolean>): Promise<RebuildOutcome>;
  /** Starts compiling a saved document while the build waits for the save to settle. */
  precompile(file: string): void;
  /** Pays the compiler's start-up while the author reads; stops when `interrupted()`. */
  warmUp(interrupted: () => boolean): Promise<void>;
  /** A file changed: the background writes of the last build make way. */
  interrupt(): void;
  dispose(): Promise<void>;
}

const WARM_UP_RUNS = 4;

/** A fenced code block's opening line: its fence and language. */
const FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*([\w#+.-]+)[^\n]*\n/gm;

/**
 * Highlights the first code block of each language the documents use whose grammar is
 * not loaded yet. Shiki loads a grammar, and compiles its patterns, on the first block in
 * that language: for some, tens of milliseconds that the first edit of a document with
 * such a block would otherwise wait for, when every document came from the disk cache.
 * Without transformers, so the site's stylesheet of token classes is not touched.
 */
export async function warmGrammars(cache: CompileCache, sources: readonly string[], stop: () => boolean): Promise<void> {
  const first = new Map<string, string>();
  for (const source of sources) {
    for (const match of source.matchAll(FENCE)) {
      const [opening, fence, language] = match as unknown as [string, string, string];
      if (first.has(language)) continue;
      const start = match.index + opening.length;
      const end = source.indexOf(`\n${fence}`, start);
      first.set(language, source.slice(start, end === -1 ? undefined : end));
    }
  }
  if (first.size === 0 || stop()) return;
  const highlighter = await getHighlighter(cache);
  for (const [language, code] of first) {
    if (stop()) return;
    if (highlighter.getLoadedLanguages().includes(language)) continue;
    // Plain and unknown languages come back as 'text', which has no grammar to warm.
    const lang = await ensureLanguage(highlighter, language);
    if (lang !== 'text') highlighter.codeToHtml(code, { lang, themes: THEMES, tokenizeTimeLimit: 0 });
    // A turn for the server and the watcher between languages.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export function createDevSession(options: DevSessionOptions): DevSession {
  const output = createServedOutput(options.outDir);
  const templates = createTemplateLoader(options.templatesDir);
  const configFile = path.join(options.root, 'site.config.ts');
  let config: SiteConfig | undefined;
  /** Made with the first config: compiled MDX is also kept on disk, so the next start is quick. */
  let session: BuildSession | undefined;
  /** Set by a change, cleared by the build that used it: a failed reload is retried by the next build. */
  let configStale = true;
  let templatesStale = false;
  let closed = false;

  const isTemplateModule = (file: string) => {
    if (!file.startsWith(options.templatesDir + path.sep)) return false;
    const [top] = path.relative(options.templatesDir, file).split(path.sep);
    return top !== 'client' && top !== 'styles';
  };

  return {
    get config() {
      return config;
    },
    async rebuild(changed, settled = () => Promise.resolve(true)) {
      for (const file of changed) {
        if (file === configFile || file === config?.configFile) configStale = true;
        else if (isTemplateModule(file)) templatesStale = true;
      }
      const logger = createLogger({ level: options.level === 'verbose' ? 'verbose' : 'quiet', write: options.write, writeError: options.writeError });
      try {
        if (configStale || !config) {
          config = await logger.task('config', () => loadConfig(options.root));
          configStale = false;
        }
        session ??= createBuildSession({ incremental: true, cacheDir: defaultCacheDir(config) });
        // The watcher reports every change: the build reads only what it reported (see source-texts.ts).
        reportSourceChanges(session.sourceTexts, changed);
        if (templatesStale) {
          session.render = await logger.task('templates', () => templates.load());
          templatesStale = false;
        }
        const site = await buildSite(config, { logger, session, searchIndex: 'later', markdown: 'later', drafts: true });
        if (closed) return { ok: false, closed: true };
        if (!(await settled())) return { ok: false, superseded: true };
        // The search index (and the Markdown twins) are made after the browsers were told, in the gaps between the requests of the pages they reload.
        const later = site.searchIndex;
        const served = later ? { ...site, searchIndex: (index?: SearchIndexOptions) => later({ ...index, yieldTo: options.serverIdle }) } : site;
        const current = config;
        const { change, finish } = await logger.task('write', () => output.sync(served, current));
        return { ok: true, site, change, timings: logger.timings, finish };
      } catch (error) {
        if (closed) return { ok: false, closed: true };
        // A half-written file's error is not the author's: the build of the whole file follows.
        if (!(await settled())) return { ok: false, superseded: true };
        return { ok: false, error, timings: logger.timings };
      }
    },
    precompile(file) {
      if (!session || !/\.mdx?$/.test(file)) return;
      let source: string;
      try {
        // Read at once, not through the thread pool: this is the start of the edit's critical path.
        source = readFileSync(file, 'utf8');
      } catch {
        // Gone again (a rename, an editor's temporary file): the build sees what is there.
        return;
      }
      precompile(session.compile, file, source);
    },
    /**
     * When the first build took every document from the disk cache, the highlighter and the
     * MDX compiler have not run yet, and the first edits would pay for starting them and for
     * the JIT's first passes over their code. Compiling a document of the site a few times
     * right after the first build pays it while the author is still reading. The scratch
     * cache keeps it out of the real caches; only the highlighter, which holds no per-site
     * state, is handed over.
     */
    async warmUp(interrupted) {
      if (!session) return;
      const stop = () => interrupted() || closed;
      const sources = [...(session.lastRender?.sources ?? new Map<string, string>())].filter(([file]) => /\.mdx?$/.test(file)).map(([, source]) => source);
      if (!session.compile.highlighter) {
        const scratch = createCompileCache();
        // A document of typical length: the longest would keep the compiler busy for a second.
        const sample = [...sources].sort((a, b) => a.length - b.length)[Math.floor(sources.length / 2)] ?? '## Warm-up\n\nText.\n\n```text\nwarm-up\n```\n';
        for (let run = 0; run < WARM_UP_RUNS && !stop(); run++) {
          const source = `${sample}\n\nWarm-up ${run}.\n`;
          await compileMdx({ file: path.join(process.cwd(), 'warm-up.mdx'), relFile: 'warm-up.mdx', source }, { routeOfFile: () => '/', siteUrl: '', cache: scratch }).catch(() => undefined);
        }
        session.compile.highlighter ??= scratch.highlighter;
      }
      await warmGrammars(session.compile, sources, stop);
    },
    interrupt() {
      output.interrupt();
    },
    async dispose() {
      closed = true;
      output.interrupt();
      if (session) await disposeBuildSession(session);
      await templates.dispose();
    },
  };
}
