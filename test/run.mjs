// Runs every test/**/*.test.ts with Node's test runner. Node 20 does not expand glob
// arguments itself, so the file list is made here; extra arguments are passed through
// (e.g. `npm test -- --test-name-pattern=serve`).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const files = readdirSync(here, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.test.ts') && !e.parentPath.includes(`${path.sep}fixtures`))
  .map((e) => path.relative(process.cwd(), path.join(e.parentPath, e.name)))
  .sort();
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...process.argv.slice(2), ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
