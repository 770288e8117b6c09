/**
 * Watch mode loads the templates afresh after every save. Each load must replace the
 * last one, not pile up next to it: after many loads, only the last render stage may
 * still be reachable, and the loaded one must render with docsgen's own modules.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createElement } from 'react';
import { DocsgenError } from '../../../cli/errors.ts';
import { TEMPLATES_DIR } from '../../../cli/paths.ts';
import { createTemplateLoader, type RenderStage } from '../../../cli/watch/templates.ts';
import { checkNoTempLeftovers, tempDir } from '../../helpers/temp.ts';

/** V8's collector, callable from here without starting Node with --expose-gc. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('template reloading', () => {
  it('keeps no earlier copy of the templates alive after many saves', async () => {
    const loader = createTemplateLoader(TEMPLATES_DIR);
    const saves = 20;
    const earlier: WeakRef<RenderStage>[] = [];
    let last: RenderStage | undefined;
    for (let i = 0; i < saves; i++) {
      if (last) earlier.push(new WeakRef(last));
      last = await loader.load();
    }
    assert.equal(loader.loads, saves);
    assert.equal(typeof last, 'function');
    earlier.push(new WeakRef(last!));
    last = undefined;
    const gc = collector();
    // Looking at a WeakRef keeps its target alive until the current job ends: collect first, in a job of its own, then look.
    for (let round = 0; round < 3; round++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
    const alive = earlier.filter((ref) => ref.deref() !== undefined).length;
    assert.equal(alive, 0, `${alive} of ${saves} loaded copies of the templates are still in memory`);
    await loader.dispose();
  });

  it('loads the changed template, with the same docsgen modules and packages as the rest of the build', async (t) => {
    const dir = await tempDir(t, 'templates');
    const templates = path.join(dir, 'templates');
    await mkdir(templates);
    const entry = path.join(dir, 'render.ts');
    const errorsModule = pathToFileURL(path.resolve('cli/errors.ts')).href;
    await writeFile(
      entry,
      `import { DocsgenError } from ${JSON.stringify(errorsModule)};\nimport { createElement } from 'react';\nimport { greeting } from './templates/Greeting.tsx';\n` +
        'export function render() { return { DocsgenError, createElement, greeting }; }\n',
    );
    const template = path.join(templates, 'Greeting.tsx');
    await writeFile(template, "export const greeting = 'Olá';\n");
    const loader = createTemplateLoader(templates, entry);
    const load = async () => (await loader.load()) as unknown as () => { DocsgenError: unknown; createElement: unknown; greeting: string };
    const first = (await load())();
    assert.equal(first.greeting, 'Olá');
    assert.equal(first.DocsgenError, DocsgenError, 'one DocsgenError class, so the build recognises the errors of the templates');
    assert.equal(first.createElement, createElement, 'one React');

    await writeFile(template, "export const greeting = 'Hello';\n");
    assert.equal((await load())().greeting, 'Hello');

    await writeFile(template, "export const greeting = 'Hello\n");
    await assert.rejects(load(), (error: unknown) => {
      assert.ok(error instanceof DocsgenError);
      assert.match(error.message, /^Templates could not be compiled: /);
      assert.match(error.location, /Greeting\.tsx:1:\d+$/);
      assert.match(error.excerpt ?? '', /^> 1 \| export const greeting = 'Hello\n {2}\s*\| +\^$/);
      return true;
    });
    await loader.dispose();
  });

  it('gives the render stage the source map of the bundle, so an error thrown in a template names its line', async (t) => {
    const dir = await tempDir(t, 'templates');
    const templates = path.join(dir, 'templates');
    await mkdir(templates);
    const broken = path.join(templates, 'Broken.tsx');
    await writeFile(broken, "type Props = { label: string };\n\nexport function Broken(): string {\n  const props = undefined as unknown as Props;\n  return props.label;\n}\n");
    const entry = path.join(dir, 'render.ts');
    const framesModule = pathToFileURL(path.resolve('cli/stack-frames.ts')).href;
    // Stands in for the render stage: it reads the first frame of the error as render() does.
    await writeFile(
      entry,
      `import { createSourceMapReader } from ${JSON.stringify(framesModule)};\nimport { Broken } from './templates/Broken.tsx';\n` +
        'export function render(_input, _config, options) {\n  try {\n    return Broken();\n  } catch (error) {\n    return createSourceMapReader(options.sourceMaps).firstOwnFrame(error);\n  }\n}\n',
    );
    const loader = createTemplateLoader(templates, entry);
    const stage = (await loader.load()) as unknown as (input: unknown, config: unknown, options: object) => unknown;
    assert.deepEqual(stage(undefined, undefined, {}), { file: broken, line: 5, column: 16 });
    await loader.dispose();
  });
});

checkNoTempLeftovers();
