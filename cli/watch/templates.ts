/**
 * Loads the render stage afresh after a layout or component changed. Node never
 * evaluates an ES module twice, so the render stage and the templates it imports are
 * bundled with esbuild into one new module per change and imported from a temporary
 * folder. Everything outside the templates (React, docsgen's other modules such as
 * errors.ts) stays external and is imported by its real URL, so it is the very instance
 * the rest of the build uses: one React, one DocsgenError class.
 *
 * Each load leaves its module in Node's module map for the life of the process: a few
 * hundred kilobytes per template save, acceptable for an authoring session.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { DocsgenError } from '../errors.ts';
import type { render as renderStage } from '../stages/render.ts';

export type RenderStage = typeof renderStage;

const renderEntry = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../stages/render.ts');

export interface TemplateLoader {
  load(): Promise<RenderStage>;
  dispose(): Promise<void>;
}

/** `templatesDir` is docsgen's templates folder (config.dirs.templates): what gets bundled afresh. */
export function createTemplateLoader(templatesDir: string): TemplateLoader {
  let tempDir: string | undefined;
  let count = 0;
  const inside = (dir: string, file: string) => file === dir || file.startsWith(dir + path.sep);

  const plugin: esbuild.Plugin = {
    name: 'docsgen-fresh-templates',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || (args.pluginData as { own?: boolean } | undefined)?.own) return undefined;
        // Packages resolve as Node resolves them for the rest of docsgen, to the very same files.
        if (!args.path.startsWith('.') && !path.isAbsolute(args.path)) {
          try {
            return { path: import.meta.resolve(args.path), external: true };
          } catch (error) {
            return { errors: [{ text: `Cannot resolve '${args.path}': ${error instanceof Error ? error.message : String(error)}` }] };
          }
        }
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { own: true } });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        if (resolved.external || !path.isAbsolute(resolved.path)) return { path: args.path, external: true };
        if (inside(templatesDir, resolved.path)) return { path: resolved.path };
        return { path: pathToFileURL(resolved.path).href, external: true };
      });
    },
  };

  return {
    async load() {
      let code: string;
      try {
        const result = await esbuild.build({
          entryPoints: [renderEntry],
          bundle: true,
          format: 'esm',
          platform: 'node',
          target: 'node20',
          jsx: 'automatic',
          write: false,
          logLevel: 'silent',
          sourcemap: 'inline',
          plugins: [plugin],
        });
        code = result.outputFiles[0]?.text ?? '';
      } catch (error) {
        const first = (error as esbuild.BuildFailure).errors?.[0];
        const location = first?.location;
        throw new DocsgenError(`Templates could not be compiled: ${first?.text ?? String(error)}`, {
          file: location?.file,
          line: location?.line,
          column: location ? location.column + 1 : undefined,
          excerpt: location?.lineText ? `> ${location.line} | ${location.lineText}\n  ${' '.repeat(String(location.line).length)} | ${' '.repeat(location.column)}^` : undefined,
          hint: 'Fix the syntax error in the template; the site keeps the last good templates until then.',
          cause: error,
        });
      }
      tempDir ??= await mkdtemp(path.join(os.tmpdir(), 'docsgen-templates-'));
      const file = path.join(tempDir, `render-${++count}.mjs`);
      await writeFile(file, code);
      try {
        const mod = (await import(pathToFileURL(file).href)) as { render?: RenderStage };
        if (typeof mod.render !== 'function') throw new Error('the render stage has no render export');
        return mod.render;
      } catch (error) {
        throw new DocsgenError(`Templates could not be loaded: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, {
          hint: 'A layout or component fails as soon as it is imported; templates run in Node, without window or document.',
          cause: error,
        });
      }
    },
    async dispose() {
      if (tempDir) await rm(tempDir, { recursive: true, force: true });
      tempDir = undefined;
    },
  };
}
