/**
 * "Did you mean" for a name the author may have mistyped. Only a near spelling is offered:
 * the nearest of unrelated names (`hide_title` -> `title`, `/img/nada.png` -> a page)
 * sends the author looking in the wrong place.
 */
import { closest, distance } from 'fastest-levenshtein';

/** The candidate nearest to `target` when it is a few edits away for its length, else undefined. */
export function nearest(target: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  const best = closest(target, candidates);
  return distance(target, best) <= Math.max(2, Math.floor(target.length / 4)) ? best : undefined;
}
