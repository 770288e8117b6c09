import assert from 'node:assert/strict';

/**
 * Polls `probe` until it returns a truthy value; fails with `what` and the last value after
 * `timeoutMs`. A probe that throws (a page in the middle of reloading has no context to
 * evaluate in) is tried again.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T> | T, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      last = await probe();
      if (last) return last as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) assert.fail(`Timed out after ${timeoutMs} ms waiting for ${what}; last value: ${String(last).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
