import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import type { ReactNode } from 'react';
import type { ApiExampleView, ApiOperationView, ApiParameterView, ApiResponseDetailView } from '../layouts/ApiReference.tsx';
import { API_DATA } from '../shared/api-reference.ts';
import { API_CONSOLE_HASH } from '../shared/index.ts';
import { TabItem, Tabs } from './Tabs.tsx';

/** The address that opens the interactive console, at an operation (`/operations/x`) or at its overview ('/'). */
export function consoleHref(route: string): string {
  return `${API_CONSOLE_HASH}${route}`;
}

/**
 * The target of a console link: never displayed, so following the link scrolls nothing,
 * but there, so the link checker knows the address exists.
 */
export function ConsoleTarget({ route }: { route: string }) {
  return <span id={consoleHref(route).slice(1)} hidden />;
}

/**
 * One operation or webhook, complete: what it does, what it takes, the request samples,
 * and every response with its fields and examples. Wide screens put the code beside
 * the text, as API references usually do; narrow ones stack it.
 */
export function ApiOperation({ apiId, op, anchor, samplesGroupId }: { apiId: string; op: ApiOperationView; anchor: string; samplesGroupId?: string }) {
  const titleId = `${apiId}-${op.kind}-${op.operationId}`;
  const details = new Map((op.responseDetails ?? []).map((d) => [d.status, d]));
  const responseExamples = (op.responseDetails ?? []).flatMap((d) => d.examples.map((e) => ({ ...e, id: `${d.status}-${e.id}`, label: `${d.status} · ${e.label}` })));
  return (
    <article className="api-op" id={anchor} aria-labelledby={titleId}>
      <div className="api-op__head">
        <h4 className="api-op__title" id={titleId}>
          <span className={`api-op__method api-op__method--${op.method.toLowerCase()}`}>{op.kind === 'webhook' ? 'WEBHOOK' : op.method}</span>{' '}
          <code className="api-op__path">{breakable(op.path, /(?<=\/)/)}</code> <span className="api-op__summary">{op.summary}</span>
        </h4>
        {op.kind === 'operation' ? (
          <a className="button button--secondary button--sm api-op__try" href={consoleHref(anchor)} {...{ [API_DATA.tryOperation]: op.operationId }}>
            Try it<span className="visually-hidden"> ({op.summary})</span>
          </a>
        ) : null}
        {op.kind === 'operation' ? <ConsoleTarget route={anchor} /> : null}
      </div>
      <div className="api-op__body">
        <div className="api-op__doc">
          {op.description ? <Markdown className="api-op__text" text={op.description} /> : null}
          {op.parameters.length ? <ParamTable caption="Parameters" rows={op.parameters} /> : null}
          {op.bodyFields.length ? <ParamTable caption={`${op.kind === 'webhook' ? 'Payload' : 'Request body'} (${op.bodyContentType ?? 'application/json'})`} rows={op.bodyFields} /> : null}
          {op.responses.length ? (
            <div className="api-op__responses">
              <h5>{op.kind === 'webhook' ? 'Expected answers' : 'Responses'}</h5>
              {op.responses.map((r) => (
                <Response key={r.status} status={r.status} description={r.description} detail={details.get(r.status)} />
              ))}
            </div>
          ) : null}
        </div>
        <div className="api-op__examples">
          {op.samples?.length ? <CodeTabs title="Request" examples={op.samples} groupId={samplesGroupId} samples /> : null}
          {op.payloads?.length ? <CodeTabs title="Payload" examples={op.payloads} /> : null}
          {responseExamples.length ? <CodeTabs title="Response examples" examples={responseExamples} /> : null}
        </div>
      </div>
    </article>
  );
}

function Response({ status, description, detail }: { status: string; description: string; detail?: ApiResponseDetailView }) {
  // Every error shares one schema; its fields are listed once per success response only, where they differ.
  const fields = /^2/.test(status) ? (detail?.fields ?? []) : [];
  return (
    <div className="api-op__response">
      <p>
        <code className={`api-op__status api-op__status--${status.charAt(0)}xx`}>{status}</code> <InlineMarkdown text={description} />
        {detail?.schemaName ? (
          <>
            {' '}
            <span className="api-op__schema">({detail.schemaName})</span>
          </>
        ) : null}
      </p>
      {fields.length ? <ParamTable caption={`${status} response body`} rows={fields.map((f) => ({ ...f, location: 'body' }))} /> : null}
    </div>
  );
}

/** `samples` marks the request samples, which the console also shows (as Elements' x-codeSamples). */
function CodeTabs({ title, examples, groupId, samples }: { title: string; examples: ApiExampleView[]; groupId?: string; samples?: boolean }) {
  return (
    <div className="api-op__code" {...(samples ? { [API_DATA.samples]: '' } : {})}>
      <h5>{title}</h5>
      <Tabs groupId={groupId} lazy>
        {examples.map((e) => (
          <TabItem key={e.id} value={e.id} label={e.label}>
            <div {...(e.target ? { [API_DATA.sampleTarget]: e.target, [API_DATA.sampleClient]: e.client } : {})} dangerouslySetInnerHTML={{ __html: e.html }} />
          </TabItem>
        ))}
      </Tabs>
    </div>
  );
}

function ParamTable({ caption, rows }: { caption: string; rows: ApiParameterView[] }) {
  return (
    <div className="table-wrapper" tabIndex={0}>
      <table className="api-op__table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.location}-${row.name}`}>
              <td>
                <code>{row.name}</code>
                <span className="api-op__where">
                  {row.location === 'body' ? '' : `${row.location}, `}
                  {row.required ? <strong>required</strong> : 'optional'}
                </span>
              </td>
              <td>{breakable(row.type, /(?<=[|,)\]_])/)}</td>
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

/** Lets a long path, pattern or enumeration wrap after its separators instead of widening the page. */
function breakable(text: string, after: RegExp): ReactNode[] {
  return text.split(after).flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, part]));
}

/**
 * OpenAPI descriptions are CommonMark (with GitHub tables). micromark escapes any raw
 * HTML, so the output is safe to insert. Headings are demoted below the operation's
 * own sections, so the page outline stays Operations > tag > operation.
 */
function markdownToHtml(text: string): string {
  return micromark(text, { extensions: [gfm()], htmlExtensions: [gfmHtml()] })
    .replace(/<(\/?)h[1-6]>/g, '<$1h6>')
    .replace(/<table>/g, '<div class="table-wrapper" tabindex="0"><table>')
    .replace(/<\/table>/g, '</table></div>');
}

export function Markdown({ text, className, lang }: { text: string; className: string; lang?: string }) {
  return <div className={className} lang={lang} dangerouslySetInnerHTML={{ __html: markdownToHtml(text) }} />;
}

/** One paragraph of Markdown without its <p>, for table cells and list items. */
function InlineMarkdown({ text }: { text: string }) {
  const html = markdownToHtml(text).trim();
  const single = /^<p>([\s\S]*)<\/p>$/.exec(html);
  return <span dangerouslySetInnerHTML={{ __html: single && !single[1]!.includes('<p>') ? single[1]! : html }} />;
}
