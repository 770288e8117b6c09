import { useId } from 'react';

export interface Participant {
  id: string;
  label: string;
}

export interface Message {
  from: string;
  to: string;
  text: string;
  /** sync: solid line, filled arrow; reply: dashed line; async: solid line, open arrow. */
  kind?: 'sync' | 'reply' | 'async';
  note?: string;
}

const COLUMN = 180;
const MARGIN = 20;
const HEAD = 44;
const ROW = 52;
const NOTE_ROW = 18;
const CHARS_PER_PX = 1 / 6.6;
/** Diagrams wider than this (the stylesheet's min-width of .seq__svg--fit, 36rem) scale down to the column. */
const FIT_MIN_WIDTH = 576;

function wrap(text: string, width: number): string[] {
  const max = Math.max(8, Math.floor(width * CHARS_PER_PX));
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && (line + ' ' + word).length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A sequence diagram drawn as SVG at build time: no diagram library reaches the browser.
 * The SVG is labelled for assistive tech and followed by the same steps as an ordered list.
 */
export function SequenceDiagram({ title, participants, messages }: { title: string; participants: Participant[]; messages: Message[] }) {
  const id = useId().replace(/:/g, '');
  const index = new Map(participants.map((p, i) => [p.id, i]));
  const x = (pid: string) => MARGIN + (index.get(pid) ?? 0) * COLUMN + COLUMN / 2;
  const unknown = messages.flatMap((m) => [m.from, m.to]).filter((pid) => !index.has(pid));
  if (unknown.length > 0) {
    throw new Error(`SequenceDiagram "${title}": message names unknown participant(s) ${[...new Set(unknown)].join(', ')}; declare them in participants.`);
  }
  const rows = messages.map((m) => {
    const span = Math.max(COLUMN - 20, Math.abs(x(m.to) - x(m.from)) - 20);
    const lines = wrap(m.text, span);
    return { m, lines, height: ROW + (lines.length - 1) * 14 + (m.note ? NOTE_ROW : 0) };
  });
  const width = MARGIN * 2 + participants.length * COLUMN;
  const bodyHeight = rows.reduce((sum, r) => sum + r.height, 0);
  const height = HEAD * 2 + bodyHeight + 40;
  let y = HEAD + 24;
  const participantBox = (p: Participant, top: number) => (
    <g key={`${p.id}-${top}`} className="seq__participant">
      <rect x={x(p.id) - COLUMN / 2 + 8} y={top} width={COLUMN - 16} height={HEAD - 8} rx="6" />
      <text x={x(p.id)} y={top + (HEAD - 8) / 2 + 5} textAnchor="middle">
        {p.label}
      </text>
    </g>
  );
  return (
    // The text version sits outside the figure: a figcaption must be the figure's first or last child.
    <div className="seq">
      <figure className="seq__figure">
        {/* Wider than a phone: a labelled region that takes focus, so a keyboard can scroll it (WCAG 2.1.1). */}
        <div className="seq__scroll" tabIndex={0} role="region" aria-label={`Diagram: ${title}`}>
          <svg
            className={`seq__svg${width > FIT_MIN_WIDTH ? ' seq__svg--fit' : ''}`}
            viewBox={`0 0 ${width} ${height}`}
            width={width}
            height={height}
            role="img"
            aria-labelledby={`${id}-title ${id}-desc`}
          >
            <title id={`${id}-title`}>{title}</title>
            <desc id={`${id}-desc`}>{messages.map((m, i) => `${i + 1}. ${labelOf(participants, m.from)} → ${labelOf(participants, m.to)}: ${m.text}`).join(' ')}</desc>
            <defs>
              <marker id={`${id}-filled`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
                <path d="M0,0 L10,5 L0,10 z" className="seq__arrowhead" />
              </marker>
              <marker id={`${id}-open`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
                <path d="M0,0 L10,5 L0,10" fill="none" className="seq__arrowhead-open" />
              </marker>
            </defs>
            {participants.map((p) => (
              <line key={`life-${p.id}`} className="seq__lifeline" x1={x(p.id)} x2={x(p.id)} y1={HEAD - 8} y2={height - HEAD} />
            ))}
            {participants.map((p) => participantBox(p, 0))}
            {rows.map(({ m, lines, height: rowHeight }, i) => {
              const top = y;
              y += rowHeight;
              const x1 = x(m.from);
              const x2 = x(m.to);
              const lineY = top + lines.length * 14 + 8;
              const self = m.from === m.to;
              const marker = m.kind === 'async' ? `url(#${id}-open)` : `url(#${id}-filled)`;
              const cls = `seq__message${m.kind === 'reply' ? ' seq__message--reply' : ''}`;
              const labelX = self ? x1 + 12 : (x1 + x2) / 2;
              return (
                <g key={i}>
                  <text className="seq__label" x={labelX} y={top + 6} textAnchor={self ? 'start' : 'middle'}>
                    {lines.map((line, li) => (
                      <tspan key={li} x={labelX} dy={li === 0 ? 0 : 14}>
                        {li === 0 ? `${i + 1}. ${line}` : line}
                      </tspan>
                    ))}
                  </text>
                  {self ? (
                    <path className={cls} d={`M${x1},${lineY} h40 v14 h-38`} fill="none" markerEnd={marker} />
                  ) : (
                    <line className={cls} x1={x1} y1={lineY} x2={x2 + (x2 > x1 ? -2 : 2)} y2={lineY} markerEnd={marker} />
                  )}
                  {m.note ? (
                    <text className="seq__note" x={labelX} y={lineY + 16} textAnchor={self ? 'start' : 'middle'}>
                      {m.note}
                    </text>
                  ) : null}
                </g>
              );
            })}
            {participants.map((p) => participantBox(p, height - HEAD))}
          </svg>
        </div>
        <figcaption className="seq__caption">{title}</figcaption>
      </figure>
      <details className="seq__text">
        <summary>Text version of the diagram</summary>
        <ol>
          {messages.map((m, i) => (
            <li key={i}>
              <strong>{labelOf(participants, m.from)}</strong> → <strong>{labelOf(participants, m.to)}</strong>: {m.text}
              {m.note ? ` (${m.note})` : ''}
            </li>
          ))}
        </ol>
      </details>
    </div>
  );
}

function labelOf(participants: Participant[], pid: string): string {
  return participants.find((p) => p.id === pid)?.label ?? pid;
}
