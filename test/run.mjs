// Runs every test/**/*.test.ts with Node's test runner. Node 20 does not expand glob
// arguments itself, so the file list is made here; extra arguments are passed through
// (e.g. `npm test -- --test-name-pattern=serve`).
//
// With --checks (what `npm test` passes), first runs the typecheck, the lint and the
// build of the real site that the tests read, side by side: each keeps one core busy,
// and one after the other they left the second core idle for most of a minute.
//
// One Chromium is started for the whole run and its address passed in
// DOCSGEN_TEST_BROWSER: the browser test files connect to it (each in contexts of its
// own) instead of each launching one (test/helpers/browser.ts).
//
// The files matched by SHARED_PROCESSES run in a few processes, one after another in each:
// unit tests of one module each, the lint and typecheck boundary checks, and checks that
// read the built site (budgets and colour contrast among them); the fixture builds of
// test/cli/ (not the 363-doc site, nor the server's start and stop); the browser tests
// but watch mode's, each file with its own server and contexts in the shared Chromium;
// axe and the HTML validator; the parts of watch mode (not the command's end-to-end
// tests, nor the property test); the nginx configurations. Most take a few seconds, and a
// process of their own per file (Node, the TypeScript loader, MDX, Shiki, playwright-core
// and the client bundle made again) cost about as much CPU as the tests themselves: run
// side by side, nine of the browser files took 44 CPU seconds in one process against
// 58–67 in nine, and the nine watch-part and nginx files 9 against 16. Node 20's
// runner has no option for this (--test-isolation is Node 22's), so a generated file per
// process imports them.
//
// Three files run at a time, and the longest start first (FIRST), so the run does not end
// with one long file running alone while the other slots have nothing left. The runner
// sorts the files it is given by path, whatever their order on the command line, so each
// of these gets a generated file whose name sorts first, in a folder of its own under
// test/ (a dot folder sorts before the others), and the rest keep their own names.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync, symlinkSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { tsImport } from 'tsx/esm/api';

const here = path.dirname(fileURLToPath(import.meta.url));
const TEST_DIST = '.test-dist';
/** Test files (paths inside test/) that share a process, by process. Files that wait on signals or on a watched folder's debounce keep their own. */
const SHARED_PROCESSES = {
  'modules-and-built-site': /^(?:(client|templates|site|content|lint|cli[\\/](mdx|markdown|openapi|stages))[\\/]|quality[\\/](budgets|contrast)\.test\.ts$)/,
  'fixture-builds': /^cli[\\/](?!generated-site\.|serve\.)[^\\/]+\.test\.ts$/,
  browser: /^browser[\\/](?!watch\.)[^\\/]+\.test\.ts$/,
  quality: /^quality[\\/](axe|html-validate)\.test\.ts$/,
  'watch-parts': /^cli[\\/]watch[\\/](?!watch\.|property\.)[^\\/]+\.test\.ts$/,
  deploy: /^deploy[\\/][^\\/]+\.test\.ts$/,
};
const sharedProcessOf = (file) => {
  const rel = path.relative(here, path.resolve(file));
  return Object.keys(SHARED_PROCESSES).find((name) => SHARED_PROCESSES[name].test(rel));
};
/**
 * What starts first, longest first, by their time in a full run (about 160, 125 and 85
 * seconds for the first three, 20 to 55 for the next four). The watch property test and
 * the server's start and stop spend much of their time waiting (debounced saves,
 * signals): started at the end, they fill the slots the others leave.
 */
const FIRST = [
  'modules-and-built-site',
  'browser',
  'fixture-builds',
  'cli/watch/watch',
  'browser/watch',
  'quality',
  'cli/generated-site',
  'cli/watch/property',
  'watch-parts',
  'cli/serve',
  'deploy',
];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs a command with its output held back, so three at once do not interleave; prints it when it fails. */
function run(label, command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      if (code !== 0) process.stderr.write(`\n${label} failed (exit ${code}):\n${output}\n`);
      resolve(code === 0);
    });
  });
}

/** The Chromium the test files share, launched with the flags of test/helpers/browser.ts. */
async function launchSharedBrowser() {
  const { CHROMIUM_LAUNCH } = await tsImport('./helpers/browser.ts', import.meta.url);
  return chromium.launchServer(CHROMIUM_LAUNCH);
}

/**
 * The tests' temporary folders (fixture sites and their builds, the 363-doc site, browser
 * profiles) go to a folder in memory when the machine has one with room (a tmpfs
 * /dev/shm with 4 GiB free; DOCSGEN_TEST_DISK_TMP=1 keeps them on disk). On ext4, creating
 * a file where many were deleted minutes before, which a test run does tens of thousands
 * of times, was seen to cost the kernel up to half a millisecond. Same files, same calls:
 * only where they live changes. The folder is removed at the end, with anything a test
 * left behind.
 */
function memoryTempDir() {
  const TMPFS_MAGIC = 0x01021994;
  const ROOM_BYTES = 4 * 1024 ** 3;
  if (process.env.DOCSGEN_TEST_DISK_TMP) return undefined;
  try {
    const fs = statfsSync('/dev/shm');
    if (fs.type !== TMPFS_MAGIC || fs.bavail * fs.bsize < ROOM_BYTES) return undefined;
    return mkdtempSync('/dev/shm/docsgen-test-tmp-');
  } catch {
    return undefined;
  }
}
/** Folders this run makes and removes at its end, or when it is interrupted. */
const madeDirs = [];
const removeMadeDirs = () => {
  for (const dir of madeDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => (removeMadeDirs(), process.exit(130)));
const memoryTmp = memoryTempDir();
if (memoryTmp) {
  process.env.TMPDIR = memoryTmp;
  madeDirs.push(memoryTmp);
  // tsx keeps the JavaScript it made of each TypeScript file in <tmpdir>/tsx-<euid>, by
  // content (the name is tsx's own: it has no setting for the folder). In a fresh folder,
  // every process that starts before another has filled it compiles every file again;
  // linked to a folder that outlives the run, only changed files are. Should tsx rename
  // the folder, the link is merely unused.
  const tsxCache = path.join(here, '..', 'node_modules', '.cache', 'tsx');
  mkdirSync(tsxCache, { recursive: true });
  symlinkSync(tsxCache, path.join(memoryTmp, `tsx-${process.geteuid?.() ?? userInfo().username}`), 'dir');
}

const args = process.argv.slice(2);
const checks = args.includes('--checks');
const browserServer = launchSharedBrowser();
// Started now, awaited only when the tests start: a failed launch is reported then, by the files that need it.
browserServer.catch(() => undefined);
if (checks) {
  const results = await Promise.all([
    run('npm run typecheck', npm, ['run', '--silent', 'typecheck']),
    run('npm run lint', npm, ['run', '--silent', 'lint']),
    run('the build of the real site', process.execPath, [path.join(here, '..', 'cli', 'bin.mjs'), 'build', '--quiet', '--out', TEST_DIST]),
  ]);
  if (results.includes(false)) {
    await (await browserServer.catch(() => undefined))?.close();
    removeMadeDirs();
    process.exit(1);
  }
}

const files = readdirSync(here, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.test.ts') && !e.parentPath.includes(`${path.sep}fixtures`))
  .map((e) => path.relative(process.cwd(), path.join(e.parentPath, e.name)))
  .sort();
const nameOf = (file) => path.relative(here, file).split(path.sep).join('/').replace(/\.test\.ts$/, '');
const importsOf = (list) => list.map((file) => `import ${JSON.stringify(pathToFileURL(path.resolve(file)).href)};\n`).join('');
const generatedDir = mkdtempSync(path.join(here, '.run-'));
madeDirs.push(generatedDir);
const generated = FIRST.flatMap((name, i) => {
  const list = name in SHARED_PROCESSES ? files.filter((file) => sharedProcessOf(file) === name) : files.filter((file) => !sharedProcessOf(file) && nameOf(file) === name);
  if (list.length === 0) return [];
  const file = path.join(generatedDir, `${String(i).padStart(2, '0')}-${name.replaceAll('/', '-')}.test.mjs`);
  writeFileSync(file, importsOf(list));
  return [file];
});
const rest = files.filter((file) => !sharedProcessOf(file) && !FIRST.includes(nameOf(file)));
const env = { ...process.env };
if (checks) env.DOCSGEN_TEST_DIST = TEST_DIST;
// The builds the tests make in their own process render with React's production build, as
// `docsgen build` does (cli/bin.mjs): the HTML the command writes, and about a tenth less CPU.
env.NODE_ENV ??= 'production';
const server = await browserServer.catch((error) => {
  process.stderr.write(`Could not start the shared Chromium, each browser test file launches its own: ${error.message}\n`);
  return undefined;
});
if (server) env.DOCSGEN_TEST_BROWSER = server.wsEndpoint();
const passed = args.filter((a) => a !== '--checks');
// Not spawnSync: the shared Chromium is served from this process's event loop.
const tests = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=3', ...passed, ...generated, ...rest], { stdio: 'inherit', env });
const status = await new Promise((resolve) => tests.on('close', (code) => resolve(code ?? 1)));
await server?.close();
removeMadeDirs();
process.exit(status);
