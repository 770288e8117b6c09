/**
 * Layout shift across a scripted reading session on the API reference pages, in
 * headless Chromium: load, wait for idle, scroll with the wheel, Page Down, pointer
 * moves, a click on a heading, more pointer moves. Lighthouse measures only the load;
 * a reference that rearranges itself later (an island taking over on the first input)
 * shows up here. Every layout-shift entry counts, those right after an input included
 * (Chromium marks them hadRecentInput and CLS leaves them out), since reading must not
 * move the page at all. Target: 0.
 */
import { launchBrowser } from '../test/helpers/browser.ts';

export interface LayoutShiftResult {
  name: string;
  route: string;
  /** Sum of every layout-shift entry of the session. */
  total: number;
  /** The same without the entries Chromium attributes to recent input (what CLS counts). */
  withoutInput: number;
  entries: number;
  /** Scroll positions the reader did not cause: the page moved between two of their actions. */
  unaskedScrolls: number;
}

declare global {
  interface Window {
    docsgenShifts?: { value: number; hadRecentInput: boolean }[];
  }
}

export async function benchLayoutShift(baseUrl: string, pages: readonly { name: string; route: string }[]): Promise<LayoutShiftResult[]> {
  const browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
  const results: LayoutShiftResult[] = [];
  try {
    for (const { name, route } of pages) {
      const page = await browser.newPage();
      try {
        await page.addInitScript(() => {
          window.docsgenShifts = [];
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
              window.docsgenShifts!.push({ value: entry.value, hadRecentInput: entry.hadRecentInput });
            }
          }).observe({ type: 'layout-shift', buffered: true });
        });
        await page.goto(new URL(route, baseUrl).href, { waitUntil: 'load' });
        await page.evaluate(() => new Promise((resolve) => window.requestIdleCallback(() => setTimeout(resolve, 300), { timeout: 2000 })));
        let x = 0;
        const pointer = async () => {
          x = (x % 500) + 41;
          await page.mouse.move(x, 200 + (x % 300));
        };
        const session: (() => Promise<unknown>)[] = [
          () => page.mouse.wheel(0, 600),
          () => page.keyboard.press('PageDown'),
          pointer,
          () => page.keyboard.press('PageDown'),
          () => page.click('.api-summary__tag h3 >> nth=1'),
          pointer,
          () => page.mouse.wheel(0, 900),
          pointer,
        ];
        let unaskedScrolls = 0;
        for (const step of session) {
          await step();
          await page.waitForTimeout(300);
          const settled = await page.evaluate(() => window.scrollY);
          for (let i = 0; i < 3; i++) await pointer();
          await page.waitForTimeout(600);
          if (Math.abs((await page.evaluate(() => window.scrollY)) - settled) > 1) unaskedScrolls++;
        }
        const shifts = await page.evaluate(() => window.docsgenShifts ?? []);
        results.push({
          name,
          route,
          total: round(shifts.reduce((sum, s) => sum + s.value, 0)),
          withoutInput: round(shifts.filter((s) => !s.hadRecentInput).reduce((sum, s) => sum + s.value, 0)),
          entries: shifts.length,
          unaskedScrolls,
        });
      } finally {
        await page.close();
      }
    }
  } finally {
    await browser.close();
  }
  return results;
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}

export function formatLayoutShift(results: LayoutShiftResult[]): string {
  const lines = ['Layout shift across a reading session (load, wheel, Page Down, pointer moves, a click on a heading; target 0):'];
  for (const r of results) {
    lines.push(`  ${r.route.padEnd(32)} shift ${r.total.toFixed(4)} (${r.entries} entries; ${r.withoutInput.toFixed(4)} without input), unasked scrolls ${r.unaskedScrolls}`);
  }
  return lines.join('\n');
}
