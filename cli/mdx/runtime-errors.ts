/**
 * Finds the MDX line of an error thrown while a compiled document runs (an expression
 * such as `{data.missing.field}` fails when the page is rendered). The stack names a
 * line of the compiled code; the source map the compiler wrote leads back to the MDX.
 */
import { TraceMap, type EncodedSourceMap } from '@jridgewell/trace-mapping';
import { tracePosition } from '../stack-frames.ts';

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
  const position = tracePosition(new TraceMap(map), Number(frame[1]) - HEADER_LINES, Number(frame[2]));
  return position && { line: position.line, column: position.column };
}
