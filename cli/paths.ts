/** Where docsgen itself lives, independent of the site being built or the working directory. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** docsgen's layouts and browser code; a site brings content and config, not templates. */
export const TEMPLATES_DIR = path.join(PACKAGE_ROOT, 'templates');
/**
 * TypeScript settings used to load site.config.ts, .tsx pages and the templates, so JSX
 * compiles for React wherever the site lives (a site folder may have no tsconfig of its own).
 */
export const TSCONFIG = path.join(PACKAGE_ROOT, 'tsconfig.json');
