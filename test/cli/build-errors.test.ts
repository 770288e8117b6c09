/**
 * Every kind of bad input gets a clear message naming the file, the line where known,
 * and the fix; the build exits non-zero and the last good dist/ is left untouched.
 * The builds run in this process (failingFixtureBuild gives what `docsgen build` would
 * print); one case runs the command itself, to hold the two together.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { buildFixture, failingFixtureBuild } from '../helpers/build.ts';
import { makeSite, runCli } from '../helpers/fixtures.ts';
import { repoRoot } from '../helpers/site.ts';
import { checkNoTempLeftovers, type CleanupOwner } from '../helpers/temp.ts';

checkNoTempLeftovers();

const PREVIOUS = '<!DOCTYPE html><title>previous good build</title>';

async function failingBuild(t: CleanupOwner, overlay: string): Promise<{ output: string; dir: string }> {
  const dir = await makeSite(t, overlay);
  // An earlier build's output: it holds the folder that marks it as docsgen's.
  await mkdir(path.join(dir, 'dist/.docsgen'), { recursive: true });
  await writeFile(path.join(dir, 'dist/index.html'), PREVIOUS);
  const result = await failingFixtureBuild(dir);
  assert.equal(result.code, 1, `expected exit code 1, got ${result.code}\n${result.output}`);
  assert.equal(await readFile(path.join(dir, 'dist/index.html'), 'utf8'), PREVIOUS, 'the last good dist/ must be untouched');
  const leftovers = (await readdir(dir)).filter((name) => name.startsWith('.dist-'));
  assert.deepEqual(leftovers, [], 'no staging folder may be left behind');
  return { output: result.output, dir };
}

/** A build of the minimal site with `files` (path -> text) added; it must fail. Returns what it printed. */
async function failingBuildWith(t: TestContext, files: Record<string, string>): Promise<string> {
  const dir = await makeSite(t);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  const result = await failingFixtureBuild(dir);
  assert.equal(result.code, 1, result.output);
  return result.output;
}

describe('build errors', { concurrency: 2 }, () => {
  it('the minimal fixture builds cleanly (the cases below fail only because of their overlay)', async (t) => {
    const dir = await makeSite(t);
    const result = await buildFixture(dir);
    assert.ok(existsSync(path.join(dir, 'dist/docs/intro/index.html')));
    assert.equal(result.pages.length, 10);
  });

  it('docsgen build prints the error on stderr and exits with status 1, as the builds below in this process report it', async (t) => {
    const dir = await makeSite(t, 'mdx-syntax');
    const command = await runCli(['build'], dir);
    const inProcess = await failingFixtureBuild(dir);
    assert.equal(command.code, 1, command.stderr);
    assert.equal(command.stderr, `\n${inProcess.output}\n\n`);
  });

  it('an output folder holding the sources or files no build wrote is refused, and nothing in it is touched', async (t) => {
    const dir = await makeSite(t);
    await mkdir(path.join(dir, 'public'));
    await writeFile(path.join(dir, 'public/NOTES.md'), 'notes');
    const sources = async () => (await readdir(path.join(dir, 'content'), { recursive: true })).sort();
    const before = await sources();
    const intoContent = await runCli(['build', '--out', 'content'], dir);
    assert.equal(intoContent.code, 1, intoContent.stderr);
    assert.match(intoContent.stderr, /The output folder content\/ holds content\/docs, which the build reads: building into it would delete it\.\n {2}Fix: .*--out dist/);
    assert.deepEqual(await sources(), before, 'content/ is untouched');
    const intoPublic = await runCli(['build', '--out', 'public'], dir);
    assert.equal(intoPublic.code, 1, intoPublic.stderr);
    assert.match(intoPublic.stderr, /The output folder public\/ holds files no docsgen build wrote \(NOTES\.md\)/);
    assert.equal(await readFile(path.join(dir, 'public/NOTES.md'), 'utf8'), 'notes');
  });

  it('MDX syntax error: file:line:col, the offending line, and a fix', async (t) => {
    const { output } = await failingBuild(t, 'mdx-syntax');
    assert.match(output, /^content\/docs\/intro\.mdx:8:38 {2}MDX syntax error: Unexpected end of file in expression, expected a corresponding closing brace for `\{`$/m);
    assert.match(output, /^> 8 \| A value \{amount is missing its brace\.$/m);
    assert.match(output, /Fix: In MDX, "<" starts a JSX tag and "\{" starts an expression/);
  });

  it('a JSX block tag never closed: file:line:col and the line, as other MDX syntax errors', async (t) => {
    const output = await failingBuildWith(t, {
      'content/docs/guia/abas.mdx': '---\ntitle: Abas\ndescription: Abas.\n---\n\nTexto.\n\n<Tabs>\n  <TabItem value="a" label="A">\n\nUm.\n\n  </TabItem>\n',
    });
    assert.match(output, /^content\/docs\/guia\/abas\.mdx:8:1 {2}MDX syntax error: Expected a closing tag for `<Tabs>`$/m);
    assert.match(output, /^> +8 \| <Tabs>$/m);
    assert.match(output, /Fix: In MDX, "<" starts a JSX tag/);
  });

  it('a component that is not defined: the line where the document first uses it, outside code', async (t) => {
    const output = await failingBuildWith(t, {
      'content/docs/guia/foo.mdx': '---\ntitle: Foo\ndescription: Foo.\n---\n\nO texto `<Foo />` e\n\n```mdx\n<Foo />\n```\n\nAqui: <Foo />\n',
    });
    assert.match(output, /^content\/docs\/guia\/foo\.mdx:12:7 {2}Page \/docs\/guia\/foo failed to render: Expected component `Foo` to be defined/m);
    assert.match(output, /^> 12 \| Aqui: <Foo \/>$/m);
    assert.match(output, /Fix: <Foo> is not a component docsgen provides \(/);
  });

  it('missing and mistyped front matter: every problem at once, with the closest field', async (t) => {
    const { output } = await failingBuild(t, 'bad-frontmatter');
    assert.match(output, /Found 2 problems in the content:/);
    assert.match(output, /^content\/docs\/intro\.mdx:1 {2}Front-matter field 'description' is missing\.$/m);
    assert.match(output, /^content\/docs\/intro\.mdx:3:1 {2}Unknown front-matter field 'sidebar_postion'\.$/m);
    assert.match(output, /Fix: Did you mean 'sidebar_position'\?/);
  });

  it('table of contents levels that are not levels, or that list nothing: each at its line, with the fix', async (t) => {
    const output = await failingBuildWith(t, {
      'content/docs/guia/niveis.mdx': '---\ntitle: Níveis\ndescription: D.\ntoc_min_heading_level: 4\ntoc_max_heading_level: 3\n---\n\nTexto.\n',
      'content/docs/guia/sete.mdx': '---\ntitle: Sete\ndescription: D.\ntoc_max_heading_level: 7\n---\n\nTexto.\n',
    });
    assert.match(output, /Found 2 problems in the content:/);
    assert.match(
      output,
      /^content\/docs\/guia\/niveis\.mdx:5:1 {2}Front-matter field 'toc_max_heading_level': 3 is below toc_min_heading_level, 4, so the table of contents would list no heading\.\n(?: {2}.*\n)*> 5 \| toc_max_heading_level: 3\n(?: {2}.*\n)* {2}Fix: The table of contents lists the levels from toc_min_heading_level to toc_max_heading_level: set toc_max_heading_level to 4 or more, or toc_min_heading_level to 3 or less\.$/m,
    );
    assert.match(
      output,
      /^content\/docs\/guia\/sete\.mdx:4:1 {2}Front-matter field 'toc_max_heading_level': a table of contents level is a whole number from 2 to 6, not 7\.\n(?: {2}.*\n)*> 4 \| toc_max_heading_level: 7\n(?: {2}.*\n)* {2}Fix: Write a number without quotes from 2 to 6: the table of contents goes down to that heading level \(4 is h4, `####` in Markdown\)\. Remove the field to stop at h3\.$/m,
    );
  });

  it('a sidebar entry naming a doc that does not exist suggests the closest id', async (t) => {
    const { output } = await failingBuild(t, 'unknown-sidebar');
    assert.match(output, /^site\.config\.ts:8:31 {2}The sidebar 'docs' lists 'guia\/primeiro-paso', which does not exist\.$/m);
    assert.match(output, /^> 8 \| {3}sidebars: \{ docs: \['intro', 'guia\/primeiro-paso'\] \},$/m);
    assert.match(output, /Fix: Did you mean 'guia\/primeiro-passo'\?/);
  });

  it('pagination_next naming no doc: the line of the field', async (t) => {
    const output = await failingBuildWith(t, {
      'content/docs/guia/seguinte.mdx': '---\ntitle: Seguinte\ndescription: Seguinte.\npagination_next: guia/primeiro-paso\n---\n\nTexto.\n',
    });
    assert.match(output, /^content\/docs\/guia\/seguinte\.mdx:4:18 {2}Front-matter field 'pagination_next' names 'guia\/primeiro-paso', which is not a doc\.$/m);
    assert.match(output, /^> 4 \| pagination_next: guia\/primeiro-paso$/m);
    assert.match(output, /Did you mean 'guia\/primeiro-passo'\?/);
  });

  it('a doc id used twice names both files', async (t) => {
    const { output } = await failingBuild(t, 'duplicate-id');
    assert.match(output, /Doc id 'intro' is used twice: by content\/docs\/intro\.md and content\/docs\/intro\.mdx\./);
  });

  it('a page component without a default export', async (t) => {
    const { output } = await failingBuild(t, 'no-default-export');
    assert.match(output, /^content\/pages\/sobre\.tsx {2}Page component has no default export\.$/m);
    assert.match(output, /Fix: Export the page component as the default export/);
  });

  it('a broken internal link is reported by file and line with the closest page', async (t) => {
    const { output } = await failingBuild(t, 'broken-link');
    assert.match(output, /^Broken links: 1 link on 1 of 10 pages\. Broken links fail the build\.$/m);
    assert.match(output, /^content\/docs\/guia\/primeiro-passo\.mdx:9:9 {2}Broken link '\/docs\/guia\/pagamentos' points to \/docs\/guia\/pagamentos, which is not a page or file of this site\.$/m);
    assert.match(output, /Fix: Did you mean \/docs\/guia\/primeiro-passo\?/);
  });

  it('a broken link to a file is compared with the files of the site, and quoted as written', async (t) => {
    const output = await failingBuildWith(t, {
      'static/img/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>\n',
      'content/docs/imagens.mdx': [
        '---',
        'title: Imagens',
        'description: A doc with images.',
        'image: /img/capa.png',
        '---',
        '',
        '![logo](/img/logo.svgg)',
        '',
        '![nada](/img/nada.png)',
        '',
        '<img src="/img/outra.png" />',
        '',
        '[fonte](/docs/guia/primeiro-passo.mdx)',
        '',
      ].join('\n'),
    });
    // A page's source file is no static file: compared with the pages.
    assert.match(output, /^content\/docs\/imagens\.mdx:13:1 {2}Broken link '\/docs\/guia\/primeiro-passo\.mdx' points to \/docs\/guia\/primeiro-passo\.mdx, which is not a page or file of this site\.\n +Fix: Did you mean \/docs\/guia\/primeiro-passo\?$/m);
    assert.match(output, /^content\/docs\/imagens\.mdx:7:1 {2}Broken link '\/img\/logo\.svgg' points to \/img\/logo\.svgg, which is not a file of this site\.\n +Fix: Did you mean \/img\/logo\.svg\?$/m);
    assert.match(output, /^content\/docs\/imagens\.mdx:9:1 {2}Broken link '\/img\/nada\.png' points to \/img\/nada\.png, which is not a file of this site\.\n +Fix: Put the file in static\/ \(static\/img\/nada\.png is published as \/img\/nada\.png\), or fix the link\.$/m);
    assert.match(output, /^content\/docs\/imagens\.mdx:11:1 {2}Broken link '\/img\/outra\.png' points to \/img\/outra\.png, which is not a file/m);
    // Front matter `image` is checked as the full URL a link preview needs; the author wrote the path.
    assert.match(output, /^content\/docs\/imagens\.mdx:4:1 {2}Broken link '\/img\/capa\.png' points to \/img\/capa\.png, which is not a file/m);
    assert.doesNotMatch(output, /Did you mean \/blog/);
  });

  it('a relative link to a missing .mdx file names the file it resolves to and the nearest existing one', async (t) => {
    const output = await failingBuildWith(t, {
      'content/docs/guia/segundo.mdx': '---\ntitle: Segundo\ndescription: A second step.\n---\n\nSee [the first](./primeiro-pass.mdx#codigos) and [the API](./api/nao-existe.mdx).\n',
    });
    assert.match(
      output,
      /^content\/docs\/guia\/segundo\.mdx:6:5 {2}Broken link '\.\/primeiro-pass\.mdx#codigos' resolves to content\/docs\/guia\/primeiro-pass\.mdx, which does not exist\.\n +Fix: Did you mean \.\/primeiro-passo\.mdx\?$/m,
    );
    assert.match(
      output,
      /^content\/docs\/guia\/segundo\.mdx:6:\d+ {2}Broken link '\.\/api\/nao-existe\.mdx' resolves to content\/docs\/guia\/api\/nao-existe\.mdx, which does not exist\.\n +Fix: Fix the path \(it is relative to the folder of the file that links\), or create the file\.$/m,
    );
    assert.doesNotMatch(output, /relative link/);
  });

  it("a link to a doc's old URL, before its slug moved it, says where the doc is now", async (t) => {
    const output = await failingBuildWith(t, {
      'content/docs/guia/telas.mdx': '---\ntitle: Telas\ndescription: Screens.\nslug: /telas-sdk\n---\n\nText.\n',
      'content/docs/guia/velho.mdx': '---\ntitle: Velho\ndescription: Renamed by its id.\nid: novo\n---\n\nText.\n',
      'content/docs/outro.mdx': '---\ntitle: Outro\ndescription: Another doc.\n---\n\nSee [the screens](/docs/guia/telas).\n\nAnd [the old one](/docs/guia/velho).\n',
    });
    assert.match(output, /^content\/docs\/outro\.mdx:8:5 {2}Broken link '\/docs\/guia\/velho' points to \/docs\/guia\/velho, which is not a page: the doc content\/docs\/guia\/velho\.mdx is now at \/docs\/guia\/novo \(its `id`\)\.$/m);
    assert.match(
      output,
      /^content\/docs\/outro\.mdx:6:5 {2}Broken link '\/docs\/guia\/telas' points to \/docs\/guia\/telas, which is not a page: the doc content\/docs\/guia\/telas\.mdx is now at \/docs\/telas-sdk \(its `slug`\)\.\n +Fix: Link to \/docs\/telas-sdk, or to the \.mdx file: a link to the file follows the doc wherever its `slug` puts it\.$/m,
    );
  });

  it('a broken #anchor is reported once, with the closest heading id', async (t) => {
    const { output } = await failingBuild(t, 'broken-anchor');
    const lines = output.split('\n').filter((line) => line.includes("Broken link '/docs/guia/primeiro-passo#codigos-de-erros'"));
    assert.equal(lines.length, 1, output);
    assert.match(lines[0]!, /^content\/docs\/intro\.mdx:7:10 /);
    assert.match(output, /Did you mean #codigos-de-erro\?/);
  });

  it("a broken #anchor to the page's own heading is reported with its file and line (the crawl leaves fragments to this check)", async (t) => {
    const output = await failingBuildWith(t, {
      'content/docs/intro.mdx': '---\ntitle: Introdução\ndescription: The first page of the minimal site.\nsidebar_position: 1\n---\n\n## Códigos de erro\n\nVeja [os códigos](#codigos-de-erros).\n',
    });
    assert.match(output, /^content\/docs\/intro\.mdx:9:\d+ +Broken link '#codigos-de-erros'/m);
    assert.match(output, /Did you mean #codigos-de-erro\?/);
  });

  it('a link broken on every page is called out once as a navbar/footer problem', async (t) => {
    const { output } = await failingBuild(t, 'layout-link');
    assert.match(output, /^site\.config\.ts {2}Broken link '\/docs\/sdk\/introducao' on every page points to \/docs\/sdk\/introducao/m);
    assert.match(output, /It comes from the navbar or footer/);
    assert.equal(output.match(/\/docs\/sdk\/introducao' /g)?.length, 1);
  });

  it('javascript:, vbscript: and data: links are refused with file and line, in Markdown and in raw <a href>', async (t) => {
    const { output } = await failingBuild(t, 'unsafe-links');
    assert.match(output, /^Broken or unsafe links: 4 links on \d+ of 10 pages\. Broken or unsafe links fail the build\.$/m);
    assert.match(output, /^content\/docs\/intro\.mdx:9:3 {2}Unsafe link 'javascript:alert\(document\.cookie\)' uses the javascript: scheme, which runs script when clicked\.$/m);
    assert.match(output, /^content\/docs\/intro\.mdx:9:58 {2}Unsafe link 'VBScript:MsgBox' uses the vbscript: scheme/m);
    assert.match(output, /^content\/docs\/intro\.mdx:11:3 {2}Unsafe link 'data:text\/html;base64,[^']+' uses the data: scheme, which opens a document made by the link itself/m);
    assert.match(output, /^content\/docs\/intro\.mdx:13:1 {2}Unsafe link ' {2}JaVa\tScript:alert\(1\)' uses the javascript: scheme/m);
    assert.doesNotMatch(output, /data:image\/gif/, 'a data: image is not a link anyone clicks');
    assert.match(output, /Fix: Link to a page of the site or to an https: URL\./);
  });

  it('a YAML alias bomb in front matter is refused at its first alias, not expanded', async (t) => {
    const { output } = await failingBuild(t, 'yaml-bomb');
    assert.match(output, /^content\/docs\/intro\.mdx:5:11 {2}Front matter uses YAML aliases more than 100 times once expanded\.$/m);
    assert.match(output, /Fix: Write the values out instead of repeating them with anchors and aliases/);
    assert.doesNotMatch(output, /Unexpected error|at .*\.ts:\d+/, 'no stack trace');
  });

  it('nesting thousands of levels deep fails at its line with a hint about nesting, in Markdown and in JSX', async (t) => {
    const frontMatter = (title: string) => `---\ntitle: ${title}\ndescription: Deep.\n---\n\nText.\n\n`;
    const output = await failingBuildWith(t, {
      'content/docs/guia/lista.mdx': `${frontMatter('Lista')}${'- '.repeat(10_000)}fundo\n`,
      'content/docs/guia/indentada.mdx': `${frontMatter('Indentada')}${Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i)}- item\n`).join('')}`,
      'content/docs/guia/jsx.mdx': `${frontMatter('JSX')}${'<div>'.repeat(300)}x${'</div>'.repeat(300)}\n`,
    });
    assert.match(output, /^content\/docs\/guia\/lista\.mdx:8:\d+ {2}The document nests more than 64 levels deep here\.$/m);
    assert.match(output, /^content\/docs\/guia\/indentada\.mdx:72:\d+ {2}The document nests more than 64 levels deep here\.$/m);
    assert.match(output, /^content\/docs\/guia\/jsx\.mdx:8:\d+ {2}The document nests more than 64 levels deep here\.$/m);
    assert.equal(output.match(/Fix: Flatten the structure/g)?.length, 3, output);
    assert.doesNotMatch(output, /Maximum call stack|escape them as/);
  });

  it('a link to the site in an API description is checked like an internal link, at its line in the YAML', async (t) => {
    // The bad-openapi overlay configures an API reference; its document is replaced by a valid one.
    const dir = await makeSite(t, 'bad-openapi');
    await cp(path.join(repoRoot, 'test/fixtures/openapi/site-links.yaml'), path.join(dir, 'openapi/pay.yaml'));
    const result = await failingFixtureBuild(dir);
    assert.equal(result.code, 1, result.output);
    const output = result.output;
    assert.match(output, /^Broken links: 1 link on 1 of 11 pages\. Broken links fail the build\.$/m);
    assert.match(output, /^openapi\/pay\.yaml:19:21 {2}Broken link '\/docs\/guia\/pagar' points to \/docs\/guia\/pagar, which is not a page or file of this site\.$/m);
    assert.doesNotMatch(output, /layout or component/);
  });

  it("a file name with '?' or '#' is reported as a name to change, not as broken links from a layout", async (t) => {
    const output = await failingBuildWith(t, { 'content/docs/guia/a?b#c.mdx': '---\ntitle: Estranho\ndescription: Nome estranho.\n---\n\nTexto.\n' });
    assert.match(output, /^content\/docs\/guia\/a\?b#c\.mdx {2}The route \/docs\/guia\/a\?b#c contains '\?' and '#', which end or escape a URL's path: every link to the page breaks\.$/m);
    assert.match(output, /Fix: In a URL, '\?' starts a query, '#' a fragment and '%' an escape\. Rename the file/);
    assert.doesNotMatch(output, /Broken link|layout or component/);
  });

  it('an import of a file that does not exist: the line of the import statement', async (t) => {
    const output = await failingBuildWith(t, {
      'content/docs/guia/importa.mdx': '---\ntitle: Importa\ndescription: Importa.\n---\n\nTexto.\n\nimport { Grafico } from "./grafico.mjs";\n\n<Grafico />\n',
    });
    assert.match(output, /^content\/docs\/guia\/importa\.mdx:8:26 {2}The import '\.\/grafico\.mjs' cannot be found\.$/m);
    assert.match(output, /^> +8 \| import \{ Grafico \} from "\.\/grafico\.mjs";$/m);
    assert.match(output, /Fix: Fix the path \(it is relative to this file, with its extension\)/);
  });

  it('an MDX expression that throws while the page renders: the line and column of the expression', async (t) => {
    const output = await failingBuildWith(t, {
      'content/docs/guia/quebra.mdx': '---\ntitle: Quebra\ndescription: Quebra.\n---\n\nTexto.\n\nO total é {[1, 2].map((n) => n.toFixed(2)).join(", ")} e {undefined.campo}.\n',
    });
    assert.match(output, /^content\/docs\/guia\/quebra\.mdx:8:\d+ {2}Page \/docs\/guia\/quebra failed to render: Cannot read properties of undefined \(reading 'campo'\)$/m);
    assert.match(output, /^> 8 \| O total é/m);
  });

  it('an OpenAPI file that does not parse: file, line and the YAML problem', async (t) => {
    const { output } = await failingBuild(t, 'bad-openapi');
    assert.match(output, /^openapi\/pay\.yaml:\d+:\d+ {2}The API document is not valid YAML: /m);
  });

  it('problems of the documents and of the API documents are reported in one run', async (t) => {
    // Each case pairs an OpenAPI file that does not parse with a problem in a document: one in its front matter (the collect stage), one in its MDX (compile).
    for (const overlay of ['bad-frontmatter', 'mdx-syntax']) {
      const dir = await makeSite(t, 'bad-openapi');
      await cp(path.join(repoRoot, 'test/fixtures/sites', overlay), dir, { recursive: true, force: true });
      const { code, output } = await failingFixtureBuild(dir);
      assert.equal(code, 1, output);
      assert.match(output, /^openapi\/pay\.yaml:\d+:\d+ {2}The API document is not valid YAML: /m, overlay);
      assert.match(output, /^content\/docs\/intro\.mdx:\d+/m, overlay);
    }
  });

  it('an unknown config key with a did-you-mean hint and its line', async (t) => {
    const { output } = await failingBuild(t, 'bad-config');
    assert.match(output, /^site\.config\.ts:9:3 {2}Unknown config key 'colourMode'\.$/m);
    assert.match(output, /Fix: Did you mean 'colorMode'\?/);
  });
});
