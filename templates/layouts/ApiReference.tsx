import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import type { ReactNode } from 'react';
import { CopyPage } from '../components/CopyPage.tsx';
import { DATA } from '../shared.ts';

export interface ApiParameterView {
  name: string;
  location: string;
  required: boolean;
  type: string;
  description: string;
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
}

export interface ApiReferenceProps {
  id: string;
  title: string;
  description: string;
  version: string;
  servers: { url: string; description: string }[];
  downloads: { label: string; href: string }[];
  operations: ApiOperationView[];
  /** Props for the browser-only Stoplight Elements island. */
  island: { specUrl: string; tryItServer: string };
  contentLanguage?: string;
}

/** Elements' hash router addresses an operation as #/operations/{operationId}; the summary uses the same ids so deep links work with or without JavaScript. */
export function operationAnchor(op: { kind: 'operation' | 'webhook'; operationId: string }): string {
  return op.kind === 'webhook' ? `/webhooks/${op.operationId}` : `/operations/${op.operationId}`;
}

/**
 * API reference page. The server renders a complete summary of every operation from
 * the OpenAPI document; Stoplight Elements, loaded only here and only once the reader
 * interacts with the page, takes its place in the browser
 * (templates/client/islands/api-reference.tsx).
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
          <button type="button" className="link-button" data-clear-credentials="" hidden>
            Clear saved credentials
          </button>{' '}
          <span role="status" data-credentials-status="" />
        </p>
      </div>
      {/* Elements' module and first render hold the main thread for about a second: started on the reader's first interaction (or a #/ route), not at load. */}
      <div className="api-page__elements" {...{ [DATA.island]: 'api-reference', [DATA.islandStart]: 'interaction', [DATA.islandProps]: JSON.stringify(props.island) }} />
      {/* Hidden by the island once Elements shows the same operations; always in the HTML for search and readers without JavaScript. */}
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
              <article key={op.operationId} className="api-op" id={operationAnchor(op)} aria-labelledby={`${props.id}-${op.kind}-${op.operationId}`}>
                <h4 className="api-op__title" id={`${props.id}-${op.kind}-${op.operationId}`}>
                  <span className={`api-op__method api-op__method--${op.method.toLowerCase()}`}>{op.kind === 'webhook' ? 'WEBHOOK' : op.method}</span>{' '}
                  <code className="api-op__path">{op.path}</code> <span className="api-op__summary">{op.summary}</span>
                </h4>
                {op.description ? <Markdown className="api-op__text" text={op.description} /> : null}
                {op.parameters.length ? <ParamTable caption="Parameters" rows={op.parameters} /> : null}
                {op.bodyFields.length ? <ParamTable caption={`Request body (${op.bodyContentType ?? 'application/json'})`} rows={op.bodyFields} /> : null}
                {op.responses.length ? (
                  <>
                    <p className="api-op__responses-title">
                      <strong>{op.kind === 'webhook' ? 'Expected answers' : 'Responses'}</strong>
                    </p>
                    <ul className="api-op__responses">
                      {op.responses.map((r) => (
                        <li key={r.status}>
                          <code>{r.status}</code> <InlineMarkdown text={r.description} />
                        </li>
                      ))}
                    </ul>
                  </>
                ) : null}
              </article>
            ))}
          </section>
        ))}
      </section>
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

function ParamTable({ caption, rows }: { caption: string; rows: ApiParameterView[] }) {
  return (
    <div className="table-wrapper" tabIndex={0}>
      <table className="api-op__table">
        <caption>{caption}</caption>
        {/* Types can be long unbroken patterns; without widths they would squeeze the descriptions. */}
        <colgroup>
          <col style={{ width: '17%' }} />
          <col style={{ width: '8%' }} />
          <col style={{ width: '26%' }} />
          <col style={{ width: '9%' }} />
          <col style={{ width: '40%' }} />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">In</th>
            <th scope="col">Type</th>
            <th scope="col">Required</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.location}-${row.name}`}>
              <td>
                <code>{row.name}</code>
              </td>
              <td>{row.location}</td>
              <td>{breakable(row.type)}</td>
              <td>{row.required ? 'yes' : 'no'}</td>
              <td>
                <InlineMarkdown text={row.description} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Lets a long pattern or enumeration wrap after its separators. */
function breakable(text: string): ReactNode[] {
  return text.split(/(?<=[|,)\]_])/).flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, part]));
}

/**
 * OpenAPI descriptions are CommonMark (with GitHub tables). micromark escapes any raw
 * HTML, so the output is safe to insert. Headings are demoted below the operation's
 * own <h4>, so the page outline stays Operations > tag > operation.
 */
function markdownToHtml(text: string): string {
  return micromark(text, { extensions: [gfm()], htmlExtensions: [gfmHtml()] })
    .replace(/<(\/?)h[1-6]>/g, '<$1h5>')
    .replace(/<table>/g, '<div class="table-wrapper" tabindex="0"><table>')
    .replace(/<\/table>/g, '</table></div>');
}

function Markdown({ text, className, lang }: { text: string; className: string; lang?: string }) {
  return <div className={className} lang={lang} dangerouslySetInnerHTML={{ __html: markdownToHtml(text) }} />;
}

/** One paragraph of Markdown without its <p>, for table cells and list items. */
function InlineMarkdown({ text }: { text: string }) {
  const html = markdownToHtml(text).trim();
  const single = /^<p>([\s\S]*)<\/p>$/.exec(html);
  return <span dangerouslySetInnerHTML={{ __html: single && !single[1]!.includes('<p>') ? single[1]! : html }} />;
}
