/**
 * How site.config.ts is loaded: compiled by esbuild and imported, with what a config
 * brings (its own modules, packages, docsgen's defineConfig, its own location), and the
 * errors an author gets for a config that does not compile, throws or exports nothing.
 */
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../cli/config.ts';
import { DocsgenError, formatError } from '../../cli/errors.ts';
import { repoRoot } from '../helpers/site.ts';

const BASE = {
  title: 'Site',
  url: 'https://site.example',
  copyright: { year: 2025, holder: 'Site' },
  navbar: { title: 'Site', items: [] },
  footer: { links: [] },
  docs: { mainDoc: 'intro' },
  sidebars: { docs: ['intro'] },
};

describe('loading site.config.ts', () => {
  let root: string;
  const write = (rel: string, text: string) => writeFile(path.join(root, rel), text);
  const failure = async (): Promise<DocsgenError> => {
    const error = await loadConfig(root).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof DocsgenError, `a DocsgenError, not ${String(error)}`);
    return error;
  };

  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'docsgen-config-'));
    await mkdir(path.join(root, 'lib'));
    // A package of the site's own, which docsgen does not have.
    await mkdir(path.join(root, 'node_modules', 'site-words'), { recursive: true });
    await write('node_modules/site-words/package.json', JSON.stringify({ name: 'site-words', type: 'module', exports: './index.js' }));
    await write('node_modules/site-words/index.js', "export const words = ['Meu', 'Portal'];\n");
  });
  after(() => rm(root, { recursive: true, force: true }));

  it("runs the config with its own TypeScript modules, its own package, docsgen's defineConfig and its own import.meta.url", async () => {
    const defineConfig = path.join(repoRoot, 'cli', 'config.ts').split(path.sep).join('/');
    await write('lib/title.ts', "import { words } from 'site-words';\nexport const title: string = words.join(' ');\n");
    await write(
      'site.config.ts',
      [
        `import { defineConfig } from ${JSON.stringify(defineConfig)};`,
        "import { fileURLToPath } from 'node:url';",
        "import { title } from './lib/title.ts';",
        'const here: string = fileURLToPath(new URL(".", import.meta.url));',
        `export default defineConfig({ ...${JSON.stringify(BASE)}, title, tagline: here });`,
      ].join('\n'),
    );
    const config = await loadConfig(root);
    assert.equal(config.title, 'Meu Portal');
    assert.equal(config.tagline, root + path.sep, 'import.meta.url is the config file');
  });

  it('gives the edited config on the next load, as watch mode needs', async () => {
    await write('site.config.ts', `export default ${JSON.stringify({ ...BASE, title: 'Primeiro' })};\n`);
    assert.equal((await loadConfig(root)).title, 'Primeiro');
    await write('site.config.ts', `export default ${JSON.stringify({ ...BASE, title: 'Segundo' })};\n`);
    assert.equal((await loadConfig(root)).title, 'Segundo');
  });

  it('names the file, line and column of a syntax error', async () => {
    await write('site.config.ts', `const broken = {\n  title: 'x',,\n};\nexport default broken;\n`);
    const error = await failure();
    assert.match(error.message, /site\.config\.ts could not be compiled/);
    assert.equal(error.file, 'site.config.ts');
    assert.equal(error.line, 2);
    assert.ok(error.excerpt?.includes("title: 'x',,"), error.excerpt);
  });

  it('says what a config threw while it ran', async () => {
    await write('site.config.ts', "throw new Error('sem credenciais');\nexport default {};\n");
    const error = await failure();
    assert.match(error.message, /site\.config\.ts could not be loaded: sem credenciais/);
    assert.equal(error.file, 'site.config.ts');
  });

  it('names the line of a config that fails while it runs, and what to do about a name it never defined', async () => {
    await write('site.config.ts', `const base = ${JSON.stringify(BASE)};\n\nexport default {\n  ...base,\n  tagline: undefinedVar,\n};\n`);
    const error = await failure();
    assert.equal(formatError(error).split('\n')[0], 'site.config.ts:5:12  site.config.ts could not be loaded: undefinedVar is not defined');
    assert.match(error.excerpt ?? '', /^> 5 \| {3}tagline: undefinedVar,$/m);
    assert.equal(error.hint, "'undefinedVar' is not defined at site.config.ts:5: define it or import it.");
  });

  it("names the line in the config's own module when the error is thrown there", async () => {
    await write('lib/words.ts', "export function words(): string {\n  throw new Error('sem palavras');\n}\n");
    await write('site.config.ts', `import { words } from './lib/words.ts';\nexport default { ...${JSON.stringify(BASE)}, tagline: words() };\n`);
    const error = await failure();
    assert.equal(error.location, `${path.join('lib', 'words.ts')}:2:9`);
    assert.match(error.message, /site\.config\.ts could not be loaded: sem palavras/);
    assert.match(error.hint ?? '', /threw this while it ran at lib\/words\.ts:2: fix it there/);
  });

  it('asks for a default export when there is none', async () => {
    await write('site.config.ts', `export const config = ${JSON.stringify(BASE)};\n`);
    const error = await failure();
    assert.match(error.message, /site\.config\.ts has no default export/);
    assert.match(error.hint ?? '', /export default defineConfig/);
  });

  it('names an import that does not resolve', async () => {
    await write('site.config.ts', "import { x } from './lib/missing.ts';\nexport default x;\n");
    const error = await failure();
    assert.match(error.message, /could not be compiled: Could not resolve "\.\/lib\/missing\.ts"/);
    assert.equal(error.line, 1);
  });
});
