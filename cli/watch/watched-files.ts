/**
 * What `serve --watch` watches: the site's conventional folders, the folders and files
 * its config points at, and docsgen's templates; what it ignores there (editors'
 * temporary files, dot names outside static/, the served folder itself); and the
 * sources the served folder may not hold (see ../output-folder.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { SiteConfig } from '../config.ts';
import { TEMPLATES_DIR } from '../paths.ts';
import { shownPath } from '../log.ts';

/** Watched in the site folder besides the folders the config names; docsgen's templates/ are watched too. */
const WATCHED = ['content', 'static', 'openapi', 'site.config.ts'];

/**
 * Files no build reads. Dot names in the static folder may be published (`staticDotfiles`,
 * .well-known/ by default), so they are watched there; whether one is published is the build's to decide.
 */
export function isIgnored(file: string, where: { outDir: string; staticDir: string }): boolean {
  const base = path.basename(file);
  return (
    (base.startsWith('.') && (base === '.git' || !file.startsWith(where.staticDir + path.sep))) ||
    base === 'node_modules' ||
    base.endsWith('~') ||
    /\.(swp|swx|swo|tmp|bak)$/.test(base) ||
    base === '4913' || // vim's probe file
    file === where.outDir ||
    file.startsWith(where.outDir + path.sep)
  );
}

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
export function watchedFolders(root: string, config?: SiteConfig): string[] {
  const configFiles = new Set([path.join(root, 'site.config.ts'), config?.configFile]);
  return watchTargets(root, config).filter((target) => !configFiles.has(target));
}

/** "content/, openapi/, site.config.ts, static/ and templates/", as the author sees them. */
export function watchedList(root: string, config: SiteConfig | undefined): string {
  const shown = watchTargets(root, config)
    .filter((target) => existsSync(target))
    .map((target) => (path.extname(target) ? shownPath(target, root) : `${shownPath(target, root)}/`))
    // The site's own folders first, then docsgen's templates (shown absolute when the site lives elsewhere).
    .sort((a, b) => Number(path.isAbsolute(a)) - Number(path.isAbsolute(b)) || a.localeCompare(b));
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : shown.join('');
}

/** The folders and file a site conventionally builds from, known before its config loads: the served folder may hold none of them. */
export function conventionalSources(root: string): string[] {
  return [...WATCHED.map((w) => path.join(root, w)), TEMPLATES_DIR];
}
