/**
 * axe-core in Chromium on one page of every kind the site has, with the states a reader
 * opens (mobile menu, search), in the light and the dark colour mode: no violations,
 * colour contrast (WCAG AA) included. axe's default rule set runs, best practices too.
 * Each page is loaded once, in light mode, and checked again after the colour-mode
 * toggle switched it to dark, as a reader does (that a mode stored earlier applies on
 * load is tested in test/browser/chrome.test.ts). In dark mode only the rules that read
 * colours run again: the rest read structure, names and roles, which the mode does not
 * change (about a tenth of the file's time in Chromium).
 *
 * The API references are checked twice: the server-rendered reference (the Elements
 * module held back, should anything ask for it), and Stoplight Elements open in its
 * console dialog. Elements' own markup is not ours; the few issues in it that the island
 * cannot repair are listed in ELEMENTS_EXCEPTIONS, each with its reason, and nothing
 * else is let through.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { Page, Route } from 'playwright-core';
import type { RunningServer } from '../../cli/serve.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { serveBuiltSite } from '../helpers/site.ts';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const MODES = ['light', 'dark'] as const;

const SEARCH_DIALOG = 'dialog.search-dialog[open]';
const ELEMENTS_READY = '.api-elements[data-state="ready"]';

interface Case {
  name: string;
  route: string;
  status?: number;
  width?: number;
  /** Brings the page into the state to check, after load. */
  prepare?: (page: Page) => Promise<void>;
  /** Holds the API reference island back, so the server summary is what is on screen. */
  holdIslands?: boolean;
  /** Violations inside Elements that are allowed, by rule and selector. */
  exceptions?: readonly Exception[];
}

interface Exception {
  rule: string;
  /** A CSS selector the violating node matches. */
  selector: string;
  reason: string;
}

/**
 * Issues in Stoplight Elements' own markup that the island cannot repair from outside
 * without forking Elements, each with its reason. Empty: what axe found in Elements 9 (a
 * heading without a level, a jump from h1 to h4, an unnamed menu button) the island
 * repairs (repairAccessibility in templates/client/islands/api-reference.tsx).
 */
export const ELEMENTS_EXCEPTIONS: readonly Exception[] = [];

async function openSearch(page: Page): Promise<void> {
  await page.keyboard.press('Control+k');
  await page.waitForSelector(SEARCH_DIALOG, { timeout: 10_000 });
  await page.fill(`${SEARCH_DIALOG} .search-dialog__input`, 'pagamento');
  await page.waitForSelector(`${SEARCH_DIALOG} [data-query="pagamento"]`, { timeout: 10_000 });
  await page.keyboard.press('ArrowDown');
}

async function openMobileMenu(page: Page): Promise<void> {
  await page.click('.navbar__toggle');
  await page.locator('#mobile-menu .mobile-menu__panel').waitFor({ state: 'visible' });
  // The panel slides in; contrast is measured once it is in place.
  await page.waitForFunction(() => {
    const panel = document.querySelector('#mobile-menu .mobile-menu__panel');
    return panel !== null && panel.getAnimations({ subtree: true }).every((a) => a.playState !== 'running');
  });
}

async function elementsLoaded(page: Page): Promise<void> {
  // Elements is the console the reader opens, here at its overview (the view checked before it became a console).
  await page.click('[data-api-console]');
  await page.waitForSelector(ELEMENTS_READY, { timeout: 30_000 });
  // Elements fills its sidebar and first operation over a few frames after "ready".
  await page.waitForLoadState('networkidle');
}

const CASES: Case[] = [
  { name: 'home', route: '/' },
  { name: 'doc with sidebar', route: '/docs/api/pagamento' },
  { name: 'doc without sidebar', route: '/docs/doc1' },
  { name: 'doc with every MDX component', route: '/docs/mdx' },
  { name: 'blog list', route: '/blog' },
  { name: 'blog post', route: '/blog/2019/05/28/hola' },
  { name: 'blog archive', route: '/blog/archive' },
  { name: 'blog tags', route: '/blog/tags' },
  { name: 'blog tag', route: '/blog/tags/hola' },
  { name: 'API reference, server-rendered', route: '/api-reference', holdIslands: true },
  { name: 'onboarding API reference, server-rendered', route: '/onboarding-api-reference', holdIslands: true },
  { name: 'API reference, Elements', route: '/api-reference', prepare: elementsLoaded, exceptions: ELEMENTS_EXCEPTIONS },
  { name: 'onboarding API reference, Elements', route: '/onboarding-api-reference', prepare: elementsLoaded, exceptions: ELEMENTS_EXCEPTIONS },
  { name: 'not found', route: '/no/such/page', status: 404 },
  { name: 'mobile menu open', route: '/docs/api/pagamento', width: 390, prepare: openMobileMenu },
  { name: 'search dialog open', route: '/docs/api/pagamento', prepare: openSearch },
];

interface AxeNode {
  target: string[];
  html: string;
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  help: string;
  nodes: AxeNode[];
}

/** Switches to dark mode as the toggle does, and waits until what follows the mode has (the console's code samples re-render). */
async function switchToDark(page: Page): Promise<void> {
  // A click on the toggle itself: the console or the search dialog may be over the navbar.
  await page.evaluate(() => (document.querySelector('[data-theme-toggle]') as HTMLElement).click());
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => requestIdleCallback(() => resolve(), { timeout: 2000 })))));
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

/**
 * The rules whose result depends on colours: all the colour mode changes. The others read
 * structure, names and roles, which are the same in both modes, and have run in light mode.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

async function violations(page: Page, exceptions: readonly Exception[], rules?: readonly string[]): Promise<string[]> {
  // Evaluated, not added as a <script>: the site's Content-Security-Policy refuses inline scripts it does not list.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await readFile(axePath, 'utf8'));
  const found = await page.evaluate(
    async ({ allowed, rules }) => {
      // The page-side API of axe-core, as far as used here.
      const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
      const result = await axe.run(document, { resultTypes: ['violations'], ...(rules ? { runOnly: { type: 'rule', values: rules } } : {}) });
      return result.violations
        .map((v) => ({
          ...v,
          nodes: v.nodes.filter((n) => {
            const element = document.querySelector(n.target.join(' '));
            return !allowed.some((e) => e.rule === v.id && element?.matches(e.selector));
          }),
        }))
        .filter((v) => v.nodes.length > 0);
    },
    { allowed: exceptions.map(({ rule, selector }) => ({ rule, selector })), rules },
  );
  return found.map((v) => `${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}  ${n.html.slice(0, 160)}${n.failureSummary ? `\n      ${n.failureSummary.replace(/\n/g, '\n      ')}` : ''}`).join('\n')}`);
}

// Each case in a context of its own (its colour mode is in storage): several at a time,
// as most of a case is waiting on the browser.
describe('accessibility (axe-core, Chromium)', { concurrency: 3 }, () => {
  let server: RunningServer;
  let browser: TestBrowser;

  before(async () => {
    [server, browser] = await Promise.all([serveBuiltSite(), launchBrowser()]);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the check can fail: a low-contrast line added to the home page is reported, in light and in dark mode', async () => {
    const page = await browser.isolatedPage();
    try {
      await page.goto(`${server.url}/`, { waitUntil: 'load' });
      const addLine = (id: string, css: string) =>
        page.evaluate(
          ({ id, css }) => {
            const p = document.createElement('p');
            p.id = id;
            p.textContent = 'Texto apagado demais';
            p.style.cssText = css;
            document.getElementById('main-content')?.append(p);
          },
          { id, css },
        );
      await addLine('too-light', 'color:#b0b0b0;background:#ffffff');
      const found = await violations(page, []);
      assert.ok(found.some((v) => v.startsWith('color-contrast:') && v.includes('#too-light')), `axe reports the contrast problem: ${found.join('\n')}`);
      await switchToDark(page);
      await addLine('too-dark', 'color:#3a3a3a;background:#1b1b1d');
      const dark = await violations(page, [], COLOUR_RULES);
      assert.ok(dark.some((v) => v.startsWith('color-contrast:') && v.includes('#too-dark')), `the dark-mode rules report it: ${dark.join('\n')}`);
    } finally {
      await page.close();
    }
  });

  for (const c of CASES) {
    it(`${c.name} (${c.route}): no violations in light mode, nor once switched to dark`, async () => {
      const page = await browser.isolatedPage();
      const held: Route[] = [];
      try {
        if (c.width) await page.setViewportSize({ width: c.width, height: 844 });
        if (c.holdIslands) {
          await page.route(/\/assets\/island-api-reference-[^/]+\.js/, (route) => {
            held.push(route);
          });
        }
        const response = await page.goto(`${server.url}${c.route}`, { waitUntil: 'load' });
        assert.equal(response?.status(), c.status ?? 200);
        await c.prepare?.(page);
        if (c.holdIslands) assert.equal(await page.locator('[data-api-summary]').isVisible(), true, 'the summary is on screen');
        for (const mode of MODES) {
          if (mode === 'dark') await switchToDark(page);
          assert.equal(await page.getAttribute('html', 'data-theme'), mode);
          const found = await violations(page, c.exceptions ?? [], mode === 'dark' ? COLOUR_RULES : undefined);
          assert.deepEqual(found, [], `axe violations on ${c.route} (${c.name}, ${mode} mode):\n${found.join('\n')}`);
        }
      } finally {
        for (const route of held) await route.abort().catch(() => undefined);
        await page.close();
      }
    });
  }
});
