/**
 * The docsgen command line: parses arguments and dispatches to build() or serve().
 * No logic of its own beyond printing results and errors.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { formatAnyError, isDocsgenError } from './errors.ts';
import { createLogger, formatBytes, formatMs, terminalStatus, type LogLevel } from './log.ts';
import { startServer } from './serve.ts';

const program = new Command();
program.name('docsgen').description('Static documentation-site generator').showHelpAfterError();

function levelOf(options: { quiet?: boolean; verbose?: boolean }): LogLevel {
  return options.quiet ? 'quiet' : options.verbose ? 'verbose' : 'normal';
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535.');
  return port;
}

function fail(error: unknown): never {
  process.stderr.write(`\n${formatAnyError(error)}\n\n`);
  process.exit(isDocsgenError(error) ? 1 : 2);
}

program
  .command('build')
  .description('Build the site into the output folder; fails on any broken link')
  .option('--out <dir>', 'output folder', 'dist')
  .option('--root <dir>', 'site folder holding site.config.ts', '.')
  .option('--check-external', 'also fetch external links', false)
  .option('--no-cache', 'compile every document again instead of reusing node_modules/.cache/docsgen')
  .option('--report <file>', 'write stage timings and peak memory as JSON (used by the benchmark)')
  .option('-q, --quiet', 'print only errors')
  .option('-v, --verbose', 'print every stage as it runs')
  .action(async (options: { out: string; root: string; checkExternal: boolean; cache: boolean; report?: string; quiet?: boolean; verbose?: boolean }) => {
    const logger = createLogger({ level: levelOf(options), status: terminalStatus() });
    const started = performance.now();
    try {
      const root = path.resolve(options.root);
      logger.info('docsgen: building…');
      // Loaded here, not at the top: `serve --watch` starts its server before paying for the build's imports.
      const [{ loadConfig }, { build }] = await Promise.all([import('./config.ts'), import('./build.ts')]);
      const config = await logger.task('config', () => loadConfig(root));
      const result = await build(config, { outDir: path.resolve(root, options.out), checkExternal: options.checkExternal, cache: options.cache, logger });
      const total = performance.now() - started;
      const outRel = path.relative(process.cwd(), result.outDir) || '.';
      const written = result.filesWritten === result.fileCount ? 'written to' : `in`;
      const left = result.filesWritten === result.fileCount ? '' : result.filesWritten === 0 ? ' (all unchanged)' : ` (${result.filesWritten} written, the others unchanged)`;
      logger.info(`\n${result.pages.length} pages, ${result.fileCount} files (${formatBytes(result.bytes)}) ${written} ${outRel}/${left} in ${formatMs(total)}.`);
      logger.info(`Stages: ${result.timings.map((t) => `${t.name} ${formatMs(t.ms)}`).join(' · ')}`);
      const scripts = result.assets.filter((a) => a.path.endsWith('.js'));
      const biggest = [...scripts].sort((a, b) => b.bytes - a.bytes)[0];
      const main = scripts.find((a) => /\/main-/.test(a.path));
      if (main) logger.info(`Client: router ${formatBytes(main.bytes)}${biggest && biggest !== main ? `, largest chunk ${path.basename(biggest.path)} ${formatBytes(biggest.bytes)}` : ''}.`);
      const island = (ext: string) => result.assets.find((a) => /island-api-reference-/.test(a.path) && a.path.endsWith(ext));
      const elementsJs = island('.js');
      const elementsCss = island('.css');
      if (elementsJs) {
        const gzip = (p: string) => gzipSync(readFileSync(path.join(result.outDir, p))).byteLength;
        const css = elementsCss ? ` + CSS ${formatBytes(elementsCss.bytes)} (${formatBytes(gzip(elementsCss.path))} gzip)` : '';
        logger.info(`API reference island (Stoplight Elements on React, loaded only on the API pages): JS ${formatBytes(elementsJs.bytes)} (${formatBytes(gzip(elementsJs.path))} gzip)${css}.`);
      }
      logger.info(`Links: ${result.linksChecked} internal links checked, none broken.`);
      if (options.report) {
        const report = { totalMs: total, peakRssBytes: process.resourceUsage().maxRSS * 1024, stages: result.timings, pages: result.pages.length, files: result.fileCount, bytes: result.bytes };
        await writeFile(path.resolve(options.report), `${JSON.stringify(report, null, 2)}\n`);
      }
    } catch (error) {
      fail(error);
    }
  });

program
  .command('serve')
  .description('Serve a built site as a production static host would')
  .option('-p, --port <port>', 'port', parsePort, 3000)
  .option('--host <host>', 'address to bind', '127.0.0.1')
  .option('--dir <dir>', 'built site folder', 'dist')
  .option('--root <dir>', 'site folder holding site.config.ts', '.')
  .option('-w, --watch', 'build, serve, and rebuild on every change (for authors)')
  .option('-q, --quiet', 'print only errors')
  .option('-v, --verbose', 'print every stage as it runs')
  .action(async (options: { port: number; host: string; dir: string; root: string; watch?: boolean; quiet?: boolean; verbose?: boolean }) => {
    try {
      if (options.watch) {
        const { serveWatch } = await import('./watch.ts');
        await serveWatch({ root: path.resolve(options.root), port: options.port, host: options.host, outDir: path.resolve(options.root, options.dir), level: levelOf(options) });
        return;
      }
      const server = await startServer({ dir: path.resolve(options.dir), port: options.port, host: options.host });
      process.stdout.write(`Serving ${path.relative(process.cwd(), path.resolve(options.dir)) || '.'}/ at ${server.url.replace('127.0.0.1', 'localhost')}${server.baseUrl()} (Ctrl+C to stop)\n`);
      const stop = () => void server.close().then(() => process.exit(0));
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    } catch (error) {
      fail(error);
    }
  });

await program.parseAsync(process.argv);
