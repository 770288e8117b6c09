/**
 * What watch mode watches and ignores, as plain rules.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { TEMPLATES_DIR } from '../../../cli/paths.ts';
import { isIgnored, watchedFolders } from '../../../cli/watch/watched-files.ts';

const root = path.resolve('/site');
const where = { outDir: path.join(root, 'dist'), staticDir: path.join(root, 'static') };

describe('watched files', () => {
  it("ignores editors' temporary files, dot names outside static/ and the served folder", () => {
    for (const file of ['content/docs/.a.mdx.swp', 'content/docs/a.mdx~', 'content/docs/4913', 'content/.git', 'content/.env', 'dist/index.html', 'dist', 'node_modules']) {
      assert.equal(isIgnored(path.join(root, file), where), true, file);
    }
    for (const file of ['content/docs/a.mdx', 'static/.well-known/security.txt', 'static/img/logo.svg', 'site.config.ts']) {
      assert.equal(isIgnored(path.join(root, file), where), false, file);
    }
  });

  it("watches the site's folders and docsgen's templates, but not the config file, which has a watcher of its own", () => {
    const folders = watchedFolders(root);
    assert.deepEqual(folders, [...['content', 'openapi', 'static'].map((d) => path.join(root, d)), TEMPLATES_DIR].sort());
  });
});
