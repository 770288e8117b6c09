/** Where docsgen itself lives, independent of the site being built or the working directory. */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The folder docsgen's modules run from: its sources (tests, which load TypeScript), or the
 * JavaScript copy of them that the command runs (cli/runtime.mjs), which keeps their folders.
 */
const RUNTIME_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Set in the JavaScript copy by cli/runtime.mjs; in the sources, the folder above cli/. */
const COPIED_FROM = (import.meta as { docsgenRoot?: string }).docsgenRoot;

export const PACKAGE_ROOT = COPIED_FROM ?? RUNTIME_ROOT;
/** docsgen's layouts and browser code; a site brings content and config, not templates. */
export const TEMPLATES_DIR = path.join(PACKAGE_ROOT, 'templates');
/**
 * TypeScript settings used to compile site.config.ts, .tsx pages and the templates, so JSX
 * compiles for React wherever the site lives (a site folder may have no tsconfig of its own).
 */
export const TSCONFIG = path.join(PACKAGE_ROOT, 'tsconfig.json');

/**
 * The URL of the module that runs docsgen's source file `file` in this process: the file
 * itself, or its JavaScript copy. Importing it gives the instance the rest of docsgen uses.
 */
export function runtimeModuleUrl(file: string): string {
  if (COPIED_FROM === undefined) return pathToFileURL(file).href;
  return pathToFileURL(path.join(RUNTIME_ROOT, path.relative(PACKAGE_ROOT, file)).replace(/\.tsx?$/, '.mjs')).href;
}
