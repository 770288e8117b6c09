/**
 * Finds the MDX line of an error thrown while a compiled document runs (an expression
 * such as `{data.missing.field}` fails when the page is rendered). The stack names a
 * line of the compiled code; the source map the compiler wrote leads back to the MDX.
 */
import { GREATEST_LOWER_BOUND, LEAST_UPPER_BOUND, TraceMap, originalPositionFor, type EncodedSourceMap } from '@jridgewell/trace-mapping';

export type { EncodedSourceMap };

/**
 * @mdx-js/mdx's run() evaluates the code as the body of an AsyncFunction, whose stack
 * frames read "eval at run (...), <anonymous>:LINE:COL" and count two header lines
 * ("async function anonymous(" and ") {") before the body.
 */
const FRAME = /eval at run \(.*?\), <anonymous>:(\d+):(\d+)\)/;
const HEADER_LINES = 2;

export function locateRuntimeError(error: unknown, map: EncodedSourceMap): { line: number; column: number } | undefined {
  const frame = error instanceof Error ? FRAME.exec(error.stack ?? '') : null;
  if (!frame) return undefined;
  const traced = new TraceMap(map);
  const needle = { line: Number(frame[1]) - HEADER_LINES, column: Number(frame[2]) - 1 };
  // Only some tokens are mapped: the nearest one before the column, else the first after it on the line.
  for (const bias of [GREATEST_LOWER_BOUND, LEAST_UPPER_BOUND] as const) {
    const position = originalPositionFor(traced, { ...needle, bias });
    if (position.line !== null) return { line: position.line, column: position.column + 1 };
  }
  return undefined;
}
