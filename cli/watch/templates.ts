/**
 * Loads the render stage afresh after a layout or component changed. Node never
 * evaluates an ES module twice and never forgets one, so importing a new bundle per save
 * would keep every old copy for the life of the process. Instead the render stage and
 * the templates it imports are bundled with esbuild into one script that is run as a
 * plain function (node:vm): when the next save replaces it, nothing refers to the old
 * copy and the garbage collector takes it, as any other value.
 *
 * Everything outside the templates (React, docsgen's other modules such as errors.ts)
 * is not bundled: it is imported by its real URL and handed to the script, so it is the
 * very instance the rest of the build uses: one React, one DocsgenError class.
 */
import path from 'node:path';
import vm from 'node:vm';
import * as esbuild from 'esbuild';
import { DocsgenError } from '../errors.ts';
import { esbuildError } from '../esbuild-error.ts';
import { PACKAGE_ROOT, runtimeModuleUrl } from '../paths.ts';
import type { render as renderStage } from '../stages/render.ts';
import type { EncodedSourceMap } from '../mdx/runtime-errors.ts';

export type RenderStage = typeof renderStage;

const renderEntry = path.join(PACKAGE_ROOT, 'cli', 'stages', 'render.ts');

/** The modules outside the templates, by URL, as the bundle asks for them. */
const EXTERNAL = 'docsgen-external';
const LOOKUP = '__docsgenExternal';
const RESULT = '__docsgenRenderStage';

export interface TemplateLoader {
  load(): Promise<RenderStage>;
  /** How many times the templates were loaded: each load leaves no module behind. */
  readonly loads: number;
  dispose(): Promise<void>;
}

/** `templatesDir` is docsgen's templates folder: what gets bundled afresh. */
export function createTemplateLoader(templatesDir: string, entry = renderEntry): TemplateLoader {
  let loads = 0;
  const inside = (dir: string, file: string) => file === dir || file.startsWith(dir + path.sep);

  const plugin: esbuild.Plugin = {
    name: 'docsgen-fresh-templates',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || (args.pluginData as { own?: boolean } | undefined)?.own) return undefined;
        // Packages resolve as Node resolves them for the rest of docsgen, to the very same files.
        if (!args.path.startsWith('.') && !path.isAbsolute(args.path)) {
          try {
            return { path: import.meta.resolve(args.path), namespace: EXTERNAL };
          } catch (error) {
            return { errors: [{ text: `Cannot resolve '${args.path}': ${error instanceof Error ? error.message : String(error)}` }] };
          }
        }
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { own: true } });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        if (!path.isAbsolute(resolved.path)) return { errors: [{ text: `Cannot load '${args.path}' in a template.` }] };
        if (inside(templatesDir, resolved.path) || resolved.path === entry) return { path: resolved.path };
        return { path: runtimeModuleUrl(resolved.path), namespace: EXTERNAL };
      });
      // An outside module becomes its exports, read from the instance Node already loaded.
      build.onLoad({ filter: /.*/, namespace: EXTERNAL }, async (args) => {
        const exported = Object.keys((await import(args.path)) as object);
        const lines = [`const m = ${LOOKUP}(${JSON.stringify(args.path)});`];
        exported.forEach((name, i) => {
          lines.push(`const e${i} = m[${JSON.stringify(name)}];`);
          lines.push(`export { e${i} as ${/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)} };`);
        });
        return { contents: lines.join('\n'), loader: 'js' };
      });
    },
  };

  return {
    get loads() {
      return loads;
    },
    async load() {
      let code: string;
      let map: string;
      // The stack of a template that throws names the bundle's lines; its map leads render's report back to the template.
      const outfile = path.join(PACKAGE_ROOT, 'docsgen-templates.js');
      const filename = `docsgen-templates-${loads + 1}.js`;
      try {
        const result = await esbuild.build({
          entryPoints: [entry],
          bundle: true,
          format: 'iife',
          globalName: RESULT,
          platform: 'node',
          target: 'node20',
          jsx: 'automatic',
          write: false,
          outfile,
          sourcemap: 'external',
          sourcesContent: false,
          logLevel: 'silent',
          plugins: [plugin],
        });
        code = result.outputFiles.find((file) => file.path === outfile)?.text ?? '';
        map = result.outputFiles.find((file) => file.path === `${outfile}.map`)?.text ?? '';
      } catch (error) {
        throw esbuildError(error, { what: 'Templates could not be compiled', hint: 'Fix the syntax error in the template; the site keeps the last good templates until then.' });
      }
      try {
        const externals = new Map<string, unknown>();
        for (const match of code.matchAll(new RegExp(`${LOOKUP}\\(("[^"]*")\\)`, 'g'))) {
          const url = JSON.parse(match[1]!) as string;
          if (!externals.has(url)) externals.set(url, await import(url));
        }
        const run = vm.compileFunction(`${code}\nreturn ${RESULT};`, [LOOKUP], { filename });
        const mod = run((url: string) => externals.get(url)) as { render?: RenderStage };
        const render = mod.render;
        if (typeof render !== 'function') throw new Error('the render stage has no render export');
        loads++;
        const sourceMaps = new Map([[filename, { map: JSON.parse(map) as EncodedSourceMap, file: outfile }]]);
        const stage: RenderStage = (input, config, options) => render(input, config, { ...options, sourceMaps });
        return stage;
      } catch (error) {
        throw new DocsgenError(`Templates could not be loaded: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, {
          hint: 'A layout or component fails as soon as it is imported; templates run in Node, without window or document.',
          cause: error,
        });
      }
    },
    async dispose() {
      // Nothing is written or cached: the last render stage goes with the build session that holds it.
    },
  };
}
