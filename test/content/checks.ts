/**
 * Checks that keep one truth across the docs and the API documents. Each takes the
 * sources and API documents it reads as arguments and returns its failures, one line
 * each, so a test can run it on the real content and on a deliberately broken fixture.
 */
import { spawnSync } from 'node:child_process';
import ts from 'typescript';
import { parse as parseYaml, YAMLError } from 'yaml';
import { resolveRef, type LoadedApiDocument } from '../../cli/stages/openapi.ts';
import { asObject, type JsonObject } from '../../cli/json.ts';
import { lineAt, tables, where, type CodeBlock, type Source } from './sources.ts';

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

// ---------------------------------------------------------------------------
// Example values

export interface Example {
  /** where a reader finds it: file:line, or file#json-pointer */
  at: string;
  value: unknown;
}

/** Every parsed JSON block of the sources; a block that does not parse is left to its own test. */
export function jsonExamples(sources: readonly Source[]): Example[] {
  return sources.flatMap((source) =>
    source.blocks
      .filter((b) => b.lang === 'json')
      .flatMap((block) => {
        try {
          return [{ at: where(block), value: JSON.parse(block.body) as unknown }];
        } catch {
          return [];
        }
      }),
  );
}

/** Every example of an OpenAPI document: `example`, a list of `examples`, or a map of Example Objects, at any depth. */
export function openApiExamples(api: Pick<LoadedApiDocument, 'file' | 'document'>): Example[] {
  const out: Example[] = [];
  const visit = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${pointer}/${i}`));
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (key === 'example') out.push({ at: `${api.file}#${at}`, value });
      else if (key === 'examples' && Array.isArray(value)) value.forEach((v, i) => out.push({ at: `${api.file}#${at}/${i}`, value: v }));
      else if (key === 'examples' && isObject(value)) {
        for (const [name, example] of Object.entries(value)) if (isObject(example) && 'value' in example) out.push({ at: `${api.file}#${at}/${name}`, value: example.value });
      } else visit(value, at);
    }
  };
  visit(api.document, '');
  return out;
}

// ---------------------------------------------------------------------------
// Entity registry: an id means one thing everywhere

type Facts = Record<string, unknown>;

/** The attributes an example states about each entity it shows, by id. Attributes that change over time (status, amounts canceled, dates) are left out. */
function statedFacts(o: JsonObject): { id: string; facts: Facts }[] {
  const id = typeof o.id === 'string' ? o.id : '';
  const pick = (...keys: string[]): Facts => Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
  const out: { id: string; facts: Facts }[] = [];
  if (id.startsWith('idf_')) out.push({ id, facts: { ...pick('amount', 'currency', 'terminal_id'), ...(isObject(o.consumer) ? { consumer: o.consumer.id } : {}) } });
  if (id.startsWith('pay_') && 'amount' in o) {
    out.push({ id, facts: { ...pick('amount', 'currency', 'installments', 'identification_id', 'terminal_id', 'consumer_id'), ...(isObject(o.payment_method) ? { payment_method: o.payment_method.id } : {}) } });
  }
  if (id.startsWith('cnl_')) out.push({ id, facts: pick('transaction_id', 'type', 'amount', 'reason') });
  if (id.startsWith('trm_')) out.push({ id, facts: pick('store_id', 'type', 'label', 'serial_number') });
  if (id.startsWith('sto_')) out.push({ id, facts: { ...pick('merchant_id', 'name'), ...(isObject(o.address) ? { address: JSON.stringify(o.address) } : {}) } });
  if (id.startsWith('mer_')) out.push({ id, facts: pick('document', 'legal_name', 'trade_name', 'mcc') });
  if (id.startsWith('pm_')) out.push({ id, facts: pick('type', 'brand', 'last4', 'installments_max') });
  if (id.startsWith('cns_')) out.push({ id, facts: pick('masked_name') });
  // A payment charges its identification's amount, on its terminal, for its consumer: a
  // transaction or a payment request states the identification's facts too.
  if (typeof o.identification_id === 'string' && typeof o.amount === 'number' && (id.startsWith('pay_') || typeof o.payment_method_id === 'string')) {
    const facts: Facts = { amount: o.amount };
    if (typeof o.terminal_id === 'string') facts.terminal_id = o.terminal_id;
    if (typeof o.consumer_id === 'string') facts.consumer = o.consumer_id;
    out.push({ id: o.identification_id, facts });
  }
  return out;
}

/** Failures where one id shows different attributes in two examples. */
export function entityConflicts(examples: readonly Example[]): string[] {
  const seen = new Map<string, { value: string; at: string }>();
  const failures: string[] = [];
  const visit = (value: unknown, at: string): void => {
    if (Array.isArray(value)) return value.forEach((v) => visit(v, at));
    if (!isObject(value)) return;
    for (const { id, facts } of statedFacts(value)) {
      for (const [key, fact] of Object.entries(facts)) {
        const shown = JSON.stringify(fact);
        const before = seen.get(`${id} ${key}`);
        if (!before) seen.set(`${id} ${key}`, { value: shown, at });
        else if (before.value !== shown) failures.push(`${at}: ${id} has ${key} ${shown}, but ${before.at} shows ${before.value}`);
      }
    }
    Object.values(value).forEach((v) => visit(v, at));
  };
  for (const example of examples) visit(example.value, example.at);
  return failures;
}

/** Failures where one Problem `code` is shown with different titles. */
export function problemTitleConflicts(examples: readonly Example[]): string[] {
  const seen = new Map<string, { title: string; at: string }>();
  const failures: string[] = [];
  const visit = (value: unknown, at: string): void => {
    if (Array.isArray(value)) return value.forEach((v) => visit(v, at));
    if (!isObject(value)) return;
    if (typeof value.code === 'string' && typeof value.title === 'string' && typeof value.status === 'number') {
      const before = seen.get(value.code);
      if (!before) seen.set(value.code, { title: value.title, at });
      else if (before.title !== value.title) failures.push(`${at}: ${value.code} is titled '${value.title}', but ${before.at} titles it '${before.title}'`);
    }
    Object.values(value).forEach((v) => visit(v, at));
  };
  for (const example of examples) visit(example.value, example.at);
  return failures;
}

// ---------------------------------------------------------------------------
// Statuses and headers the docs promise

export interface OperationFacts {
  operationId: string;
  method: string;
  path: string;
  kind: 'operation' | 'webhook';
  /** status (or 4XX/5XX) -> the names of the headers its response declares */
  responses: Map<string, Set<string>>;
}

export function operationFacts(apis: readonly LoadedApiDocument[]): OperationFacts[] {
  return apis.flatMap((api) =>
    api.operations.map((op) => {
      const group = op.kind === 'webhook' ? 'webhooks' : 'paths';
      const item = resolveRef(api, asObject(api.document[group])[op.path]);
      const raw = resolveRef(api, item[op.method.toLowerCase()]);
      const responses = new Map<string, Set<string>>();
      for (const [status, response] of Object.entries(asObject(raw.responses))) responses.set(status, new Set(Object.keys(asObject(resolveRef(api, response).headers))));
      return { operationId: op.operationId, method: op.method, path: op.path, kind: op.kind, responses };
    }),
  );
}

const declares = (op: OperationFacts, status: string): boolean => op.responses.has(status) || op.responses.has(`${status.charAt(0)}XX`);

/** `POST /v1/payments`, `GET https://sandbox.api.sorrix.example/v1/transactions/{transaction_id}` */
const METHOD_PATH = /\b(GET|POST|PUT|PATCH|DELETE)\s+`?(?:https:\/\/[a-z0-9.-]+)?(\/[^\s`)'"?<>]*)/g;
/** `409`, `409 idempotency_key_in_use`, 409 idempotency_key_in_use */
const STATUS = /`([2-5]\d\d)(?:\s+[a-z]+(?:_[a-z]+)+)?`|(?<![\w.,/-])([45]\d\d)\s+`?[a-z]+(?:_[a-z]+)+\b/g;
/** "Na referência da API, esta é a operação `createPayment`": the operations a page is about. */
const PAGE_OPERATIONS = /^Na referência da API, .*$/m;

/** The operations a line names by method and path, each with where its mention starts. */
function operationsNamed(line: string, operations: readonly OperationFacts[]): { index: number; op: OperationFacts }[] {
  const out: { index: number; op: OperationFacts }[] = [];
  for (const m of line.matchAll(METHOD_PATH)) {
    const written = (m[2] ?? '').replace(/[.,:;]+$/, '').split('/');
    for (const op of operations) {
      if (op.kind !== 'operation' || op.method !== m[1]) continue;
      const template = op.path.split('/');
      if (template.length === written.length && template.every((t, i) => /^\{\w+\}$/.test(t) || t === written[i])) out.push({ index: m.index ?? 0, op });
    }
  }
  return out;
}

function statusesIn(line: string): { index: number; status: string }[] {
  return [...line.matchAll(STATUS)].map((m) => ({ index: m.index ?? 0, status: m[1] ?? m[2] ?? '' }));
}

/**
 * Failures where the prose promises a status an operation does not declare. A status
 * after an operation named by method and path on the same line (`POST /v1/payments`.
 * **Esperado:** `504`) speaks of that operation; any other speaks of the operations
 * whose examples its section (## or ###) shows (`openapi="..."`), else of the operations the page
 * says it documents ("Na referência da API, esta é a operação `createPayment`").
 * Tables are left to the error-table check.
 */
export function undeclaredStatuses(sources: readonly Source[], operations: readonly OperationFacts[]): string[] {
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const failures: string[] = [];
  for (const source of sources) {
    const marks = source.blocks.flatMap((b) => {
      const op = byId.get((b.attrs.openapi ?? '').split(' ')[0] ?? '');
      return op ? [{ line: b.line, op }] : [];
    });
    const pageLine = PAGE_OPERATIONS.exec(source.prose)?.[0] ?? '';
    const pageOps = [...pageLine.matchAll(/`(\w+)`/g)].flatMap((m) => byId.get(m[1] ?? '') ?? []);
    const lines = source.prose.split('\n');
    const starts = lines.flatMap((l, i) => (/^###? /.test(l) ? [i + 1] : []));
    lines.forEach((line, i) => {
      if (/^\s*\|/.test(line)) return;
      const named = operationsNamed(line, operations);
      for (const { index, status } of statusesIn(line)) {
        const before = named.filter((n) => n.index < index);
        const last = before.at(-1);
        let targets = last ? [last.op] : [];
        if (targets.length === 0) {
          const start = [...starts].reverse().find((s) => s <= i + 1) ?? 0;
          const end = starts.find((s) => s > i + 1) ?? Number.MAX_SAFE_INTEGER;
          const inSection = [...new Set(marks.filter((m) => m.line > start && m.line < end).map((m) => m.op))];
          targets = inSection.length > 0 ? inSection : pageOps;
        }
        targets = targets.filter((op) => op.kind === 'operation');
        if (targets.length > 0 && !targets.some((op) => declares(op, status))) {
          failures.push(`${source.file}:${i + 1}: ${status} is promised for ${targets.map((t) => t.operationId).join(', ')}, which ${targets.length === 1 ? 'does' : 'do'} not declare it`);
        }
      }
    });
  }
  return failures;
}

/** Failures where a line promises `Retry-After` with a status, and a response with that status does not declare the header. */
export function undeclaredRetryAfter(sources: readonly Source[], operations: readonly OperationFacts[]): string[] {
  const failures: string[] = [];
  for (const source of sources) {
    source.prose.split('\n').forEach((line, i) => {
      if (!line.includes('`Retry-After`')) return;
      for (const status of new Set(statusesIn(line).flatMap((s) => (/^[45]/.test(s.status) ? [s.status] : [])))) {
        for (const op of operations) {
          const headers = op.kind === 'operation' ? op.responses.get(status) : undefined;
          if (headers && !headers.has('Retry-After')) failures.push(`${source.file}:${i + 1}: promises Retry-After on ${status}, but the ${status} of ${op.operationId} does not declare it`);
        }
      }
    });
  }
  return failures;
}

// ---------------------------------------------------------------------------
// Code samples parse

const TS_EXTENSIONS: Record<string, string> = { ts: 'ts', typescript: 'ts', tsx: 'tsx', js: 'js', javascript: 'js', jsx: 'jsx', mjs: 'mjs' };

function typescriptErrors(block: CodeBlock, ext: string): string[] {
  const result = ts.transpileModule(block.body, {
    fileName: `sample.${ext}`,
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, jsx: ts.JsxEmit.Preserve, allowJs: true },
  });
  return (result.diagnostics ?? []).map((d) => {
    const pos = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    return `${where(block, (pos?.line ?? 0) + 1)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

// Python's own parser, for all blocks in one process: reads a JSON list of sources, prints one "index:line: message" per error.
const PYTHON_PARSE = `
import ast, json, sys
for i, source in enumerate(json.load(sys.stdin)):
    try:
        ast.parse(source)
    except SyntaxError as e:
        print(f"{i}:{e.lineno or 0}: {e.msg}")
`;

function pythonErrors(blocks: readonly CodeBlock[]): string[] {
  if (blocks.length === 0) return [];
  const result = spawnSync('python3', ['-c', PYTHON_PARSE], { input: JSON.stringify(blocks.map((b) => b.body)), encoding: 'utf8' });
  if (result.error || result.status !== 0) return [`python3 could not parse the Python samples (is python3 installed?): ${result.error?.message ?? result.stderr}`];
  return result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [index = '0', lineNo = '0', ...message] = line.split(':');
      const block = blocks[Number(index)];
      return block ? `${where(block, Number(lineNo))}: ${message.join(':').trim()}` : line;
    });
}

function shellErrors(block: CodeBlock): string[] {
  const result = spawnSync('bash', ['-n'], { input: block.body, encoding: 'utf8' });
  if (result.error) return [`${where(block)}: bash could not run: ${result.error.message}`];
  // bash reports an unclosed construct on the line after the last one; point at the last line instead.
  const lastLine = block.body.split('\n').length;
  const lineOf = (message: string): number => Math.min(Number(/line (\d+)/.exec(message)?.[1] ?? 1), lastLine);
  return result.status === 0 ? [] : result.stderr.split('\n').filter(Boolean).map((l) => `${where(block, lineOf(l))}: ${l.replace(/^bash: /, '')}`);
}

function yamlErrors(block: CodeBlock): string[] {
  try {
    parseYaml(block.body);
    return [];
  } catch (error) {
    const line = error instanceof YAMLError ? (error.linePos?.[0].line ?? 1) : 1;
    return [`${where(block, line)}: ${(error as Error).message.split('\n')[0]}`];
  }
}

/**
 * Failures of the samples in a language with a parser at hand: TypeScript and
 * JavaScript (the TypeScript compiler), Python (python3's ast), shell (bash -n) and
 * YAML. Kotlin, Swift, Dart, Groovy and Ruby have no parser in this repository's
 * toolchain or on the npm registry that runs without a JVM or native build; they
 * are checked by review, against the SDK facts of the pages they illustrate.
 */
export function sampleParseErrors(blocks: readonly CodeBlock[]): { failures: string[]; checked: number } {
  const failures: string[] = [];
  let checked = 0;
  const python: CodeBlock[] = [];
  for (const block of blocks) {
    const ext = TS_EXTENSIONS[block.lang];
    if (ext) failures.push(...typescriptErrors(block, ext));
    else if (block.lang === 'python' || block.lang === 'py') python.push(block);
    else if (block.lang === 'bash' || block.lang === 'sh' || block.lang === 'shell') failures.push(...shellErrors(block));
    else if (block.lang === 'yaml' || block.lang === 'yml') failures.push(...yamlErrors(block));
    else continue;
    checked++;
  }
  failures.push(...pythonErrors(python));
  return { failures, checked };
}

// ---------------------------------------------------------------------------
// Terminology of the style guide

const L = String.raw`(?<!\p{L})`;
const R = String.raw`(?!\p{L})`;
const term = (source: string, flags = ''): RegExp => new RegExp(`${L}(?:${source})${R}`, `gu${flags}`);
/** Words the style guide (content/docs/doc1.mdx) replaces, with the word to use. */
const TERMS: { pattern: RegExp; use: string }[] = [
  { pattern: term(String.raw`(?:o|O|do|Do|pelo|Pelo|ao|no|No|um|Um)\s+(?:adquirente|emissor)`), use: 'a adquirente, a emissora' },
  { pattern: term('emissor(?:es)?'), use: 'emissora, emissoras' },
  { pattern: term('reprovad[oa]s?', 'i'), use: 'recusado, recusada' },
  { pattern: term('API de Pagamentos|Payment API'), use: 'API de Pagamento' },
  { pattern: term('Onboarding API'), use: 'API de Onboarding' },
  { pattern: term(String.raw`(?:o|O|do|no|pelo)\s+Sorrix`), use: 'a Sorrix' },
  { pattern: new RegExp(String.raw`${L}(?:o|O|um|Um|mesmo|novo|do|no)\s+\**\x60Idempotency-Key\x60`, 'gu'), use: 'a `Idempotency-Key` (a chave)' },
  { pattern: term('filma(?:r|m|do)?'), use: 'capta (a captura do rosto)' },
  { pattern: term('tokens? de captura|token facial'), use: 'capture token (o campo `capture_token`)' },
  { pattern: new RegExp(String.raw`(?<![\d.,])\d{4,}(?=\s+(?:segundos|dias|minutos|requisições|reais)${R})`, 'gu'), use: 'ponto de milhar na prosa, como 3.600' },
];

/** Failures where the prose (code and inline code left out) uses a word the style guide replaces. */
export function terminologyErrors(sources: readonly Source[]): string[] {
  const failures: string[] = [];
  for (const source of sources) {
    // Inline code is a contract name, never prose; it is blanked so its words are not read.
    const prose = source.prose.replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, (code) => (code.includes('Idempotency-Key') ? code : code.replace(/[^\n]/g, ' ')));
    for (const { pattern, use } of TERMS) {
      for (const m of prose.matchAll(pattern)) failures.push(`${source.file}:${lineAt(prose, m.index ?? 0)}: '${m[0]}': write ${use}`);
    }
  }
  return failures;
}

// ---------------------------------------------------------------------------
// Rules of the product the examples must follow

/**
 * Failures where a restart example answers a `capture_timeout` restart with a canceled
 * identification: the capture timed out before any identification existed, so
 * `canceled_identification_id` is null. A response is paired with the last restart
 * request shown before it on the same page.
 */
export function restartAfterCaptureTimeoutErrors(sources: readonly Source[]): string[] {
  const failures: string[] = [];
  for (const source of sources) {
    let reason: unknown;
    for (const block of source.blocks) {
      const mark = block.attrs.openapi ?? '';
      let value: unknown;
      try {
        value = JSON.parse(block.body);
      } catch {
        continue;
      }
      if (mark === 'restartTerminalSession request') reason = asObject(value).reason;
      else if (mark.startsWith('restartTerminalSession response 2') && reason === 'capture_timeout' && asObject(value).canceled_identification_id !== null) {
        failures.push(`${where(block)}: a restart after capture_timeout cancels no identification; canceled_identification_id must be null`);
      }
    }
  }
  return failures;
}

/** A message in quotes, as the docs write what the checkout shows. */
const QUOTED = /"([^"\n]{3,})"|“([^”\n]{3,})”/g;

/**
 * Failures where the docs suggest showing a message that reveals whether a person is
 * enrolled or revoked consent (the checkout screen is seen by the operator and the
 * queue): a quoted message on a line or table row about `consumer_not_enrolled` or
 * `consent_revoked` that speaks of enrolment, the app or consent.
 */
export function revealingMessageErrors(sources: readonly Source[]): string[] {
  const failures: string[] = [];
  for (const source of sources) {
    source.prose.split('\n').forEach((line, i) => {
      if (!/consumer_not_enrolled|consent_revoked/.test(line)) return;
      for (const m of line.matchAll(QUOTED)) {
        const message = m[1] ?? m[2] ?? '';
        if (/cadastr|não usa|ainda não|desativ|revog|consent|baixe|app Sorrix/i.test(message)) failures.push(`${source.file}:${i + 1}: "${message}" tells the queue whether the person uses the Sorrix; show the neutral message of /docs/api/identificacao#erros`);
      }
    });
  }
  return failures;
}

/** Failures where an error of the token server (an operation whose path is /oauth/token) is not an OAuth 2.0 error body. */
export function tokenServerErrorFormatErrors(apis: readonly LoadedApiDocument[]): string[] {
  const failures: string[] = [];
  for (const api of apis) {
    const item = resolveRef(api, asObject(api.document.paths)['/oauth/token']);
    for (const [method, operation] of Object.entries(item)) {
      for (const [status, response] of Object.entries(asObject(resolveRef(api, operation).responses))) {
        if (!/^[45]/.test(status)) continue;
        const content = asObject(resolveRef(api, response).content);
        const types = Object.keys(content);
        const schemaRef = asObject(asObject(content['application/json']).schema).$ref;
        if (types.length !== 1 || types[0] !== 'application/json' || typeof schemaRef !== 'string' || !schemaRef.endsWith('/OAuthError')) {
          failures.push(`${api.file}: ${method.toUpperCase()} /oauth/token ${status} answers ${types.join(', ') || 'no body'}; the token server answers every error as application/json with the OAuthError schema (RFC 6749, section 5.2)`);
        }
      }
    }
  }
  return failures;
}

/**
 * Failures where the consumer-facing messages for `decline_reason` are written in more
 * than one table: the portal keeps one (in /docs/api/pagamento#motivos-de-recusa),
 * and two copies drift apart.
 */
export function duplicatedDeclineMessageTables(sources: readonly Source[]): string[] {
  const found = sources.flatMap((source) =>
    tables(source)
      .filter((t) => t.header.some((h) => h.includes('decline_reason')) && t.header.some((h) => /mensagem|dizer|mostrar/i.test(h)))
      .map((t) => `${t.file}:${t.line}`),
  );
  return found.length > 1 ? [`decline messages are written in ${found.length} tables (${found.join(', ')}); keep one and link to it`] : [];
}
