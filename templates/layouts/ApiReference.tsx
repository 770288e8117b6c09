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
  island: { specUrl: string; basePath: string; tryItServer: string };
  contentLanguage?: string;
}

/** Elements' hash router addresses an operation as #/operations/{operationId}; the summary uses the same ids so deep links work with or without JavaScript. */
export function operationAnchor(op: { kind: 'operation' | 'webhook'; operationId: string }): string {
  return op.kind === 'webhook' ? `/webhooks/${op.operationId}` : `/operations/${op.operationId}`;
}

/**
 * API reference page. The server renders a complete summary of every operation from
 * the OpenAPI document; Stoplight Elements, loaded only here, takes over above it.
 */
export function ApiReference(props: ApiReferenceProps) {
  const byTag = new Map<string, ApiOperationView[]>();
  for (const op of props.operations) byTag.set(op.tag, [...(byTag.get(op.tag) ?? []), op]);
  return (
    <main id="main-content" className="api-page" tabIndex={-1}>
      <div className="api-page__header container">
        <h1>{props.title}</h1>
        <p className="api-page__description">{props.description}</p>
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
          localStorage in plain text. <button type="button" className="link-button" data-clear-credentials="">Clear saved credentials</button>
        </p>
      </div>
      <div className="api-page__elements" {...{ [DATA.island]: 'api-reference', [DATA.islandProps]: JSON.stringify(props.island) }} />
      <section className="api-summary container" aria-labelledby={`${props.id}-summary`} lang={props.contentLanguage}>
        <h2 id={`${props.id}-summary`}>Operations</h2>
        <p>
          Version {props.version}. Servers:{' '}
          {props.servers.map((s, i) => (
            <span key={s.url}>
              {i > 0 ? ', ' : ''}
              <code>{s.url}</code> ({s.description})
            </span>
          ))}
        </p>
        {[...byTag.entries()].map(([tag, ops]) => (
          <section key={tag} className="api-summary__tag">
            <h3>{tag}</h3>
            {ops.map((op) => (
              <article key={op.operationId} className="api-op" id={operationAnchor(op)}>
                <h4 className="api-op__title">
                  <span className={`api-op__method api-op__method--${op.method.toLowerCase()}`}>{op.kind === 'webhook' ? 'WEBHOOK' : op.method}</span>{' '}
                  <code className="api-op__path">{op.path}</code> <span className="api-op__summary">{op.summary}</span>
                </h4>
                {op.description ? <p className="api-op__description">{op.description}</p> : null}
                {op.parameters.length ? <ParamTable caption="Parameters" rows={op.parameters} /> : null}
                {op.bodyFields.length ? <ParamTable caption={`Request body (${op.bodyContentType ?? 'application/json'})`} rows={op.bodyFields} /> : null}
                {op.responses.length ? (
                  <ul className="api-op__responses">
                    {op.responses.map((r) => (
                      <li key={r.status}>
                        <code>{r.status}</code> {r.description}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </article>
            ))}
          </section>
        ))}
      </section>
    </main>
  );
}

function ParamTable({ caption, rows }: { caption: string; rows: ApiParameterView[] }) {
  return (
    <div className="table-wrapper">
      <table className="api-op__table">
        <caption>{caption}</caption>
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
              <td>{row.type}</td>
              <td>{row.required ? 'yes' : 'no'}</td>
              <td>{row.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
