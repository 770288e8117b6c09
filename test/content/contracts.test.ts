/**
 * One truth across the portal: an example id means the same entity everywhere, a
 * Problem code has one title, every status and header the prose promises is declared
 * in the API documents, examples follow the product's rules (a restart after a capture
 * timeout cancels nothing, the checkout never reveals enrolment, the token server
 * answers OAuth errors), code samples parse, and the prose follows the style guide's
 * terminology. Each check also runs on test/content/fixtures/broken, a page and an
 * API document with one mistake of each kind, and must find every one of them.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { loadApiDocuments, type LoadedApiDocument } from '../../cli/stages/openapi.ts';
import siteConfig from '../../site.config.ts';
import { repoRoot } from '../helpers/site.ts';
import {
  duplicatedDeclineMessageTables,
  entityConflicts,
  jsonExamples,
  openApiExamples,
  operationFacts,
  problemTitleConflicts,
  restartAfterCaptureTimeoutErrors,
  revealingMessageErrors,
  sampleParseErrors,
  terminologyErrors,
  tokenServerErrorFormatErrors,
  undeclaredRetryAfter,
  undeclaredStatuses,
  type Example,
  type OperationFacts,
} from './checks.ts';
import { listFiles, readSource, type Source } from './sources.ts';

const FIXTURE = 'test/content/fixtures/broken';
/** The style guide lists the words to avoid, so it is the one page that writes them. */
const STYLE_GUIDE = 'content/docs/doc1.mdx';

const docSources = [...listFiles('content/docs', '.mdx'), ...listFiles('content/blog', '.mdx')].map(readSource);
const readerSources = [...docSources, ...listFiles('content/pages', '.tsx').map(readSource)].filter((s) => s.file !== STYLE_GUIDE);
const brokenSources: Source[] = [readSource(`${FIXTURE}/pagina.mdx`)];

let apis: LoadedApiDocument[] = [];
let brokenApis: LoadedApiDocument[] = [];
let operations: OperationFacts[] = [];
let brokenOperations: OperationFacts[] = [];

before(async () => {
  apis = await loadApiDocuments(
    (siteConfig.apiReferences ?? []).map((ref) => ({ id: ref.id, file: path.join(repoRoot, ref.spec) })),
    repoRoot,
  );
  brokenApis = await loadApiDocuments([{ id: 'broken', file: path.join(repoRoot, FIXTURE, 'api.yaml') }], repoRoot);
  operations = operationFacts(apis);
  brokenOperations = operationFacts(brokenApis);
});

const examplesOf = (sources: readonly Source[], documents: readonly LoadedApiDocument[]): Example[] => [...jsonExamples(sources), ...documents.flatMap(openApiExamples)];

/** Asserts that every expected failure is among the failures, each matched by its own pattern. */
function assertFinds(failures: string[], expected: RegExp[]): void {
  const missing = expected.filter((pattern) => !failures.some((f) => pattern.test(f)));
  assert.deepEqual(
    missing.map(String),
    [],
    `the check missed a mistake of the broken fixture; it reported:\n${failures.join('\n')}`,
  );
}

describe('entity registry', () => {
  it('every id of the examples (docs and both API documents) has the same attributes everywhere', () => {
    const examples = examplesOf(docSources, apis);
    assert.ok(examples.length > 150, `only ${examples.length} examples read`);
    assert.deepEqual(entityConflicts(examples), []);
  });

  it('finds a terminal in two stores and a transaction whose amount is not its identification’s', () => {
    const failures = entityConflicts(examplesOf(brokenSources, brokenApis));
    assertFinds(failures, [
      /trm_3Fh7Kp2Lx9 has store_id "sto_2Hd4Jf6Kg8", but .*pagina\.mdx:\d+ shows "sto_4Gh7Jk1Lm9"/,
      /pagina\.mdx:\d+: idf_8Jk2mQ4rT1 has amount 2560, but .*pagina\.mdx:\d+ shows 4590/,
    ]);
  });

  it('every Problem code has one title, in the docs and in both API documents', () => {
    assert.deepEqual(problemTitleConflicts(examplesOf(docSources, apis)), []);
  });

  it('finds a Problem code with two titles', () => {
    assertFinds(problemTitleConflicts(examplesOf(brokenSources, brokenApis)), [/service_unavailable is titled 'Fora do ar', but .*pagina\.mdx:\d+ titles it 'Serviço indisponível'/]);
  });
});

describe('promised statuses and headers', () => {
  it('every HTTP status the prose promises for an operation is declared by it in openapi/', () => {
    assert.deepEqual(undeclaredStatuses(docSources, operations), []);
  });

  it('finds a status promised for an operation that does not declare it', () => {
    assertFinds(undeclaredStatuses(brokenSources, brokenOperations), [/pagina\.mdx:\d+: 409 is promised for createThing, which does not declare it/]);
  });

  it('every status promised with Retry-After declares the header in every operation that answers it', () => {
    assert.deepEqual(undeclaredRetryAfter(docSources, operations), []);
  });

  it('finds a Retry-After promise on a status whose response does not declare the header', () => {
    assertFinds(undeclaredRetryAfter(brokenSources, brokenOperations), [/pagina\.mdx:\d+: promises Retry-After on 503, but the 503 of createThing does not declare it/]);
  });
});

describe('code samples parse', () => {
  it('every TypeScript, JavaScript, Python, shell and YAML sample parses', () => {
    const { failures, checked } = sampleParseErrors(docSources.flatMap((s) => s.blocks));
    assert.deepEqual(failures, []);
    assert.ok(checked >= 80, `only ${checked} samples parsed`);
  });

  it('finds a broken sample in each of those languages', () => {
    const blocks = brokenSources.flatMap((s) => s.blocks).filter((b) => b.lang !== 'json');
    const { failures, checked } = sampleParseErrors(blocks);
    assert.equal(checked, 4);
    const lineOf = (failure: string): number => Number(/^[^:]+:(\d+):/.exec(failure)?.[1]);
    const unreported = blocks.filter((b) => !failures.some((f) => lineOf(f) > b.line && lineOf(f) <= b.line + b.body.split('\n').length)).map((b) => `${b.lang} at line ${b.line}`);
    assert.deepEqual(unreported, [], `every broken sample must be reported; the check reported:\n${failures.join('\n')}`);
  });
});

describe('style guide terminology', () => {
  it('the prose uses the terms of the style guide', () => {
    assert.deepEqual(terminologyErrors(readerSources), []);
  });

  it('finds each replaced term', () => {
    assertFinds(terminologyErrors(brokenSources), [/'O emissor'/, /'o Sorrix'/, /'mesmo `Idempotency-Key`'/, /'3600': write ponto de milhar/, /'reprovado'/, /'Payment API'/, /'token de captura'/]);
  });
});

describe('product rules in the examples', () => {
  it('a restart after capture_timeout cancels no identification, on every page', () => {
    assert.deepEqual(restartAfterCaptureTimeoutErrors(docSources), []);
  });

  it('finds a restart after capture_timeout that cancels an identification', () => {
    assertFinds(restartAfterCaptureTimeoutErrors(brokenSources), [/pagina\.mdx:\d+: a restart after capture_timeout cancels no identification/]);
  });

  it('no message suggested for consumer_not_enrolled or consent_revoked reveals enrolment or consent', () => {
    assert.deepEqual(revealingMessageErrors(readerSources), []);
  });

  it('finds a message that tells the queue the person does not use the Sorrix', () => {
    assertFinds(revealingMessageErrors(brokenSources), [/pagina\.mdx:\d+: "Você ainda não usa a Sorrix" tells the queue/]);
  });

  it('the token server answers every error in the OAuth 2.0 format', () => {
    assert.deepEqual(tokenServerErrorFormatErrors(apis), []);
  });

  it('finds a token-server error answered as problem+json', () => {
    assertFinds(tokenServerErrorFormatErrors(brokenApis), [/api\.yaml: POST \/oauth\/token 503 answers application\/problem\+json/]);
  });

  it('the consumer messages of the decline reasons are written in one table', () => {
    assert.deepEqual(duplicatedDeclineMessageTables(docSources), []);
  });

  it('finds decline messages written in two tables', () => {
    assertFinds(duplicatedDeclineMessageTables(brokenSources), [/decline messages are written in 2 tables \(.*pagina\.mdx:\d+, .*pagina\.mdx:\d+\)/]);
  });
});
