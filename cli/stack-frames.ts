/**
 * Reads where an error was thrown from its stack, in the files an author edits. The
 * `docsgen` command runs a JavaScript copy of the sources (cli/runtime.mjs) and watch
 * mode runs the templates as one bundle in node:vm, so a frame names a generated line;
 * the source map written beside it, or handed over by whoever made the code, leads back
 * to the TypeScript. Stack traces stay cheap: this runs only on an error that is reported,
 * not through Node's --enable-source-maps for every stack made.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { GREATEST_LOWER_BOUND, LEAST_UPPER_BOUND, TraceMap, originalPositionFor, type EncodedSourceMap } from '@jridgewell/trace-mapping';

export interface SourcePosition {
  /** Absolute path. */
  file: string;
  line: number;
  /** 1-based, as editors count. */
  column: number;
}

/** A map for code that has none on disk (watch mode's template bundle), and the path its sources are relative to. */
export interface KnownSourceMap {
  map: EncodedSourceMap;
  /** The path the generated file would have: the map's `sources` are relative to its folder. */
  file: string;
}

/** "at fn (file:line:col)" or "at file:line:col". */
const FRAME = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/;

/**
 * Maps generated positions back to their sources. Each map is read once per reader;
 * a reader belongs to one render, so nothing outlives it.
 */
export function createSourceMapReader(known: ReadonlyMap<string, KnownSourceMap> = new Map()) {
  const traced = new Map<string, TraceMap | undefined>();

  const traceMapFor = (frameFile: string): TraceMap | undefined => {
    if (traced.has(frameFile)) return traced.get(frameFile);
    let result: TraceMap | undefined;
    const given = known.get(frameFile);
    if (given) result = new TraceMap(given.map, pathToFileURL(given.file).href);
    else {
      const file = frameFile.startsWith('file:') ? fileURLToPath(frameFile) : frameFile;
      // Only generated JavaScript has a map beside it; a TypeScript frame (tsx maps its own) is already the source.
      if (/\.m?js$/.test(file) && existsSync(`${file}.map`)) {
        try {
          result = new TraceMap(readFileSync(`${file}.map`, 'utf8'), pathToFileURL(`${file}.map`).href);
        } catch {
          // A map that cannot be read leaves the generated position, which is still true.
        }
      }
    }
    traced.set(frameFile, result);
    return result;
  };

  /** The source position of one generated position, or the position itself when there is no map. */
  const original = (frameFile: string, line: number, column: number): SourcePosition => {
    const map = traceMapFor(frameFile);
    const asIs = { file: frameFile.startsWith('file:') ? fileURLToPath(frameFile) : frameFile, line, column };
    if (!map) return asIs;
    const found = tracePosition(map, line, column);
    if (!found?.source) return asIs;
    return { file: found.source.startsWith('file:') ? fileURLToPath(found.source) : path.resolve(found.source), line: found.line, column: found.column };
  };

  return {
    /**
     * The first frame of `error`'s stack in code of the site or of docsgen, mapped to its
     * source: frames in packages (React calling a component) are skipped. Undefined when
     * the first such frame is code without a file (a compiled MDX document, run by eval).
     */
    firstOwnFrame(error: unknown): SourcePosition | undefined {
      const stack = error instanceof Error ? (error.stack ?? '') : '';
      for (const line of stack.split('\n')) {
        const frame = FRAME.exec(line);
        if (!frame) continue;
        const [, file, row, col] = frame as unknown as [string, string, string, string];
        if (file.includes('<anonymous>')) return undefined;
        if (file.startsWith('node:')) continue;
        const position = original(file, Number(row), Number(col));
        if (position.file.split(path.sep).includes('node_modules')) continue;
        return position;
      }
      return undefined;
    },
  };
}

export type SourceMapReader = ReturnType<typeof createSourceMapReader>;

/**
 * The source position (1-based line and column) of a generated one (1-based too). Only some
 * tokens are mapped: the nearest one before the column, else the first after it on the line.
 */
export function tracePosition(map: TraceMap, line: number, column: number): { source: string | null; line: number; column: number } | undefined {
  for (const bias of [GREATEST_LOWER_BOUND, LEAST_UPPER_BOUND] as const) {
    const found = originalPositionFor(map, { line, column: column - 1, bias });
    if (found.line !== null) return { source: found.source, line: found.line, column: found.column + 1 };
  }
  return undefined;
}

/** Whether `file` lies below `dir`. */
export function isInside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
