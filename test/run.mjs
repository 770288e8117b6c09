// Runs every test/**/*.test.ts with Node's test runner. Node 20 does not expand glob
// arguments itself, so the file list is made here; extra arguments are passed through
// (e.g. `npm test -- --test-name-pattern=serve`).
//
// With --checks (what `npm test` passes), first runs the typecheck, the lint and the
// build of the real site that the tests read, side by side: each keeps one core busy,
// and one after the other they left the second core idle for most of a minute.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const TEST_DIST = '.test-dist';
const SLOW = /(^|[\\/])(browser|quality|watch)[\\/]/;
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

const args = process.argv.slice(2);
const checks = args.includes('--checks');
if (checks) {
  const results = await Promise.all([
    run('npm run typecheck', npm, ['run', '--silent', 'typecheck']),
    run('npm run lint', npm, ['run', '--silent', 'lint']),
    run('the build of the real site', process.execPath, [path.join(here, '..', 'cli', 'bin.mjs'), 'build', '--quiet', '--out', TEST_DIST]),
  ]);
  if (results.includes(false)) process.exit(1);
}

const files = readdirSync(here, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.test.ts') && !e.parentPath.includes(`${path.sep}fixtures`))
  .map((e) => path.relative(process.cwd(), path.join(e.parentPath, e.name)))
  .sort()
  // Two files run at a time; the longest (a browser, a watch process) start first, so the
  // last minute is not one long file running alone while the other slot has nothing left.
  .sort((a, b) => Number(SLOW.test(b)) - Number(SLOW.test(a)));
const env = checks ? { ...process.env, DOCSGEN_TEST_DIST: TEST_DIST } : process.env;
const passed = args.filter((a) => a !== '--checks');
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...passed, ...files], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
