/**
 * The tsconfigs hold the boundaries for types: each part of docsgen is checked without
 * the environment it does not run in. A fixture of test/fixtures/typecheck is compiled
 * under a part's tsconfig, as if it sat there; `npm run typecheck` checks the real tree.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { repoRoot } from '../helpers/site.ts';

/**
 * Parsed files by name and parse settings, shared by the programs of this file: the
 * standard library and @types files are most of each program, and parsing them once
 * instead of eight times is most of this file's time. All tsconfigs extend one base, so a
 * file parses the same under each; the settings that change a parse are in the key.
 */
const parsedFiles = new Map<string, ts.SourceFile | undefined>();

function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, settings, onError, shouldCreate) => {
    const key = `${fileName}\0${JSON.stringify(settings)}`;
    if (!parsedFiles.has(key)) parsedFiles.set(key, parse(fileName, settings, onError, shouldCreate));
    return parsedFiles.get(key);
  };
  return host;
}

function diagnostics(config: string, fixture: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(repoRoot, config), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
  });
  assert.ok(parsed, `${config} could not be read`);
  assert.deepEqual(parsed.errors, [], `${config} has errors`);
  // The fixture stands alone: checked with the part's environment, not built into the part's project.
  const options = { ...parsed.options, composite: false, noEmit: true, emitDeclarationOnly: false };
  const program = ts.createProgram([path.join(repoRoot, 'test/fixtures/typecheck', fixture)], options, cachingHost(options));
  return ts.getPreEmitDiagnostics(program).map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

describe('typecheck boundaries', () => {
  it('cli/ has no DOM', () => {
    const errors = diagnostics('tsconfig.cli.json', 'uses-document.ts');
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /Cannot find name 'document'/);
  });

  it('templates/client/ has no Node', () => {
    const errors = diagnostics('tsconfig.client.json', 'uses-process.ts');
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /Cannot find name 'process'/);
  });

  it('layouts and components have neither', () => {
    const dom = diagnostics('tsconfig.views.json', 'view-uses-window.tsx');
    assert.equal(dom.length, 1, dom.join('\n'));
    assert.match(dom[0]!, /Cannot find name 'window'/);
    const node = diagnostics('tsconfig.views.json', 'uses-process.ts');
    assert.equal(node.length, 1, node.join('\n'));
    assert.match(node[0]!, /Cannot find name 'process'/);
  });

  it('templates/shared/ has neither', () => {
    for (const fixture of ['uses-document.ts', 'uses-process.ts']) {
      const errors = diagnostics('tsconfig.shared.json', fixture);
      assert.equal(errors.length, 1, `${fixture}: ${errors.join('\n')}`);
      assert.match(errors[0]!, /Cannot find name '(document|process)'/);
    }
  });

  it('the same code type-checks on the side it belongs to', () => {
    assert.deepEqual(diagnostics('tsconfig.client.json', 'uses-document.ts'), []);
    assert.deepEqual(diagnostics('tsconfig.client.json', 'view-uses-window.tsx'), []);
    assert.deepEqual(diagnostics('tsconfig.cli.json', 'uses-process.ts'), []);
  });
});
