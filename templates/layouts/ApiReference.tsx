import { ApiOperation, ConsoleTarget, Markdown, consoleHref } from '../components/ApiOperation.tsx';
import { API_DATA, API_ISLAND, operationAnchor } from '../shared/api-reference.ts';
import { API_CONSOLE_HASH, DATA } from '../shared/index.ts';
import { CopyPage } from '../components/CopyPage.tsx';

export interface ApiParameterView {
  name: string;
  location: string;
  required: boolean;
  type: string;
  description: string;
}

export interface ApiExampleView {
  id: string;
  label: string;
  /** A complete highlighted code block, rendered at build time. */
  html: string;
  /** Request samples: what printed them, for Elements' x-codeSamples (e.g. 'shell' and 'curl'). */
  target?: string;
  client?: string;
}

export interface ApiResponseDetailView {
  status: string;
  contentType?: string;
  schemaName?: string;
  fields: { name: string; required: boolean; type: string; description: string }[];
  examples: ApiExampleView[];
}

export interface ApiOperationView {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  tag: string;
  kind: 'operation' | 'webhook';
  parameters: ApiParameterView[];
  bodyFields: ApiParameterView[];
  bodyContentType?: string;
  responses: { status: string; description: string }[];
  /** Request samples, one tab per language (operations only). */
  samples?: ApiExampleView[];
  /** Payload examples (webhooks only). */
  payloads?: ApiExampleView[];
  responseDetails?: ApiResponseDetailView[];
}

export interface ApiReferenceProps {
  id: string;
  title: string;
  description: string;
  version: string;
  servers: { url: string; description: string }[];
  downloads: { label: string; href: string }[];
  operations: ApiOperationView[];
  /** groupId of the docs' language tabs, so the request samples switch with them. */
  samplesGroupId?: string;
  /** Props for the browser-only Stoplight Elements island. */
  island: { specUrl: string; tryItServer: string; sandboxServer: string; primary?: { light: string; dark: string } };
  contentLanguage?: string;
}

/**
 * API reference page: every operation of the OpenAPI document rendered at build time,
 * complete (parameters, bodies, request samples, responses with examples), which is
 * what readers, search and print see. Stoplight Elements is the interactive console,
 * loaded only when the reader asks for it ("Try it", the console button or a
 * `#try/…` link) and shown above the page in a dialog, so it never moves what the
 * reader is reading (templates/client/islands/api-reference.tsx).
 */
export function ApiReference(props: ApiReferenceProps) {
  const byTag = new Map<string, ApiOperationView[]>();
  for (const op of props.operations) byTag.set(op.tag, [...(byTag.get(op.tag) ?? []), op]);
  const summaryId = `${props.id}-summary`;
  return (
    <main id="main-content" className="api-page" tabIndex={-1}>
      <div className="api-page__header container">
        <h1>{props.title}</h1>
        <CopyPage />
        <Markdown className="api-page__description" text={props.description} lang={props.contentLanguage} />
        <ul className="api-page__downloads">
          <li>
            <a className="button button--primary button--sm" href={consoleHref('/')} data-api-console="">
              Open the interactive console
            </a>
            <ConsoleTarget route="/" />
          </li>
          {props.downloads.map((d) => (
            <li key={d.href}>
              <a className="button button--secondary button--sm" href={d.href} download="">
                {d.label}
              </a>
            </li>
          ))}
        </ul>
        <p className="api-page__notice" role="note">
          Try-it requests go to the sandbox server ({props.island.tryItServer}). Credentials you type into the try-it panel are kept in this browser&rsquo;s
          localStorage in plain text.{' '}
          {/* Shown by the island, the only code that can act on it. */}
          <button type="button" className="link-button" {...{ [API_DATA.clearCredentials]: '' }} hidden>
            Clear saved credentials
          </button>{' '}
          <span role="status" {...{ [API_DATA.credentialsStatus]: '' }} />
        </p>
      </div>
      <section className="api-summary container markdown" aria-labelledby={summaryId} lang={props.contentLanguage} data-api-summary="">
        <h2 id={summaryId}>Operations</h2>
        <p>
          Version {props.version}. Servers:{' '}
          {props.servers.map((s, i) => (
            <span key={s.url}>
              {i > 0 ? ', ' : ''}
              <code>{s.url}</code> ({s.description})
            </span>
          ))}
        </p>
        <nav aria-label="Operations by tag">
          <ul className="api-summary__index">
            {[...byTag.entries()].map(([tag, ops]) => (
              <li key={tag}>
                <a href={`#${tagAnchor(props.id, tag)}`}>{tag}</a>:{' '}
                {ops.map((op, i) => (
                  <span key={op.operationId}>
                    {i > 0 ? ' · ' : ''}
                    <a href={`#${operationAnchor(op)}`}>{op.summary}</a>
                  </span>
                ))}
              </li>
            ))}
          </ul>
        </nav>
        {[...byTag.entries()].map(([tag, ops]) => (
          <section key={tag} className="api-summary__tag" aria-labelledby={tagAnchor(props.id, tag)}>
            <h3 id={tagAnchor(props.id, tag)}>{tag}</h3>
            {ops.map((op) => (
              <ApiOperation key={op.operationId} apiId={props.id} op={op} anchor={operationAnchor(op)} samplesGroupId={props.samplesGroupId} />
            ))}
          </section>
        ))}
      </section>
      {/* The console: a dialog the island fills with Elements on request. Out of the page's flow, so opening it moves nothing. */}
      <div className="api-console-host" {...{ [DATA.island]: API_ISLAND, [DATA.islandStart]: 'request', [DATA.islandRoute]: API_CONSOLE_HASH, [DATA.islandProps]: JSON.stringify(props.island) }} />
    </main>
  );
}

function tagAnchor(apiId: string, tag: string): string {
  return `${apiId}-tag-${tag
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;
}
