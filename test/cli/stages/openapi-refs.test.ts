/**
 * A `$ref` to another file or URL is refused before anything is read or fetched: a local
 * HTTP server counts the requests the build sends, and a sentinel outside the site is a
 * named pipe, so opening it (which reading requires) is seen by the writer waiting on it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdir, mkdtemp, open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { DocsgenErrors, formatAnyError, formatError } from '../../../cli/errors.ts';
import { loadApiDocuments } from '../../../cli/stages/openapi.ts';

const SECRET_KEY = 'sentinel_private_key';

function documentWith(refs: { responses: string; remote: string; example: string }): string {
  return `openapi: 3.1.0
info:
  title: Hostile references
  version: 1.0.0
paths:
  /v1/health:
    get:
      operationId: getHealth
      responses:
        '200':
          description: OK
          content:
            application/json:
              schema:
                $ref: '${refs.responses}'
              examples:
                remote:
                  externalValue: '${refs.example}'
        '404':
          $ref: '${refs.remote}'
`;
}

/** A temporary folder, removed after the test once the pipes made in it are released. */
async function tempDir(t: TestContext): Promise<{ dir: string; pipes: (() => Promise<void>)[] }> {
  const tmp = { dir: await mkdtemp(path.join(os.tmpdir(), 'docsgen-refs-')), pipes: [] as (() => Promise<void>)[] };
  t.after(async () => {
    for (const release of tmp.pipes) await release();
    await rm(tmp.dir, { recursive: true, force: true });
  });
  return tmp;
}

/** A named pipe with a writer waiting on it: `opened()` is true once anything opened it to read. */
async function pipeSentinel(tmp: { dir: string; pipes: (() => Promise<void>)[] }, name: string): Promise<{ opened: () => boolean }> {
  const file = path.join(tmp.dir, name);
  execFileSync('mkfifo', [file]);
  let opened = false;
  let released = false;
  const writer = open(file, 'w').then(async (handle: FileHandle) => {
    if (!released) opened = true;
    await handle.writeFile(`${SECRET_KEY}: 1\n`).catch(() => undefined);
    await handle.close();
  });
  // Opening the read end without blocking lets the waiting writer finish.
  tmp.pipes.push(async () => {
    released = true;
    const reader = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    await writer;
    await reader.close();
  });
  return { opened: () => opened };
}

describe('loadApiDocuments: references to other files and URLs', () => {
  it('reads no file and fetches no URL a $ref or externalValue names, and reports each $ref with file, line and pointer', async (t) => {
    const tmp = await tempDir(t);
    const requests: string[] = [];
    const server: Server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.end(`${SECRET_KEY}: 1\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const site = path.join(tmp.dir, 'site');
    await mkdir(path.join(site, 'openapi'), { recursive: true });
    const sentinel = await pipeSentinel(tmp, 'outside.yaml');
    const file = path.join(site, 'openapi/api.yaml');
    await writeFile(file, documentWith({ responses: '../../outside.yaml', remote: `${origin}/remote.yaml#/Missing`, example: `${origin}/example.json` }));

    let error: unknown;
    await loadApiDocuments([{ id: 'api', file }], site).catch((e: unknown) => (error = e));
    assert.ok(error instanceof DocsgenErrors, `expected the document to be refused, got ${formatAnyError(error)}`);
    const output = formatAnyError(error);

    assert.deepEqual(requests, [], 'no request may reach the server');
    assert.equal(sentinel.opened(), false, 'the file outside the site must not be opened');
    assert.doesNotMatch(output, new RegExp(SECRET_KEY), 'nothing of the referenced file may reach the output');
    const lines = error.errors.map((e) => formatError(e).split('\n')[0]);
    assert.deepEqual(lines, [
      "openapi/api.yaml:15:23  /paths/~1v1~1health/get/responses/200/content/application~1json/schema/$ref: '../../outside.yaml' points to a file outside the site; docsgen does not read it.",
      `openapi/api.yaml:20:17  /paths/~1v1~1health/get/responses/404/$ref: '${origin}/remote.yaml#/Missing' is a remote reference; docsgen does not fetch it.`,
    ]);
    assert.ok(error.errors.every((e) => /Keep each API document in one file/.test(e.hint ?? '')));
  });

  it('refuses an absolute path without opening it', async (t) => {
    const tmp = await tempDir(t);
    const sentinel = await pipeSentinel(tmp, 'passwd');
    const site = path.join(tmp.dir, 'site');
    await mkdir(site);
    const file = path.join(site, 'api.yaml');
    await writeFile(file, documentWith({ responses: path.join(tmp.dir, 'passwd'), remote: '#/components/responses/NotFound', example: 'file:///etc/passwd' }).replace('paths:', 'components:\n  responses:\n    NotFound:\n      description: Not found\npaths:'));

    let error: unknown;
    await loadApiDocuments([{ id: 'api', file }], site).catch((e: unknown) => (error = e));
    assert.ok(error instanceof DocsgenErrors, formatAnyError(error));
    assert.equal(sentinel.opened(), false, 'the file named by the absolute $ref must not be opened');
    assert.deepEqual(
      error.errors.map((e) => formatError(e).split('\n')[0]),
      [`api.yaml:19:23  /paths/~1v1~1health/get/responses/200/content/application~1json/schema/$ref: '${path.join(tmp.dir, 'passwd')}' points to a file outside the site; docsgen does not read it.`],
    );
  });
});
