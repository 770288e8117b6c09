/**
 * Debian's Chromium driven by playwright-core, launched the way this project's
 * machines allow: no browser download, no background networking, a fresh profile.
 *
 * `npm test` starts one Chromium for the whole run (test/run.mjs) and passes its address
 * in DOCSGEN_TEST_BROWSER; each test file connects to it instead of starting its own,
 * which cost a second or more of a core per file. Every TestBrowser is a browser context
 * of its own (its own storage, cache, cookies and permissions), so tests sharing the one
 * Chromium share nothing else. A file run on its own launches Chromium itself.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Debian's Chromium: CHROME_PATH when set, else its headless shell (Debian's package
 * chromium-headless-shell, built from the same source and version as /usr/bin/chromium,
 * without the desktop browser around the engine: the build Playwright itself runs for
 * headless tests), else /usr/bin/chromium. The same tests took a third of the processor
 * time in the headless shell (the site chrome's: 12–14 CPU seconds against 32–33), and
 * the browser tests were most of the suite's time.
 */
export const CHROMIUM_PATH = process.env.CHROME_PATH || (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/** How test/run.mjs starts the Chromium that the test files share. */
export const CHROMIUM_LAUNCH = {
  executablePath: CHROMIUM_PATH,
  args: CHROMIUM_ARGS,
  headless: true,
};

/** Set by test/run.mjs: the address of the Chromium started for the whole run. */
export const SHARED_BROWSER_ENV = 'DOCSGEN_TEST_BROWSER';

export interface ContextOptions {
  viewport?: { width: number; height: number };
  javaScriptEnabled?: boolean;
  /** A touch device (a tablet or phone): no hover, coarse pointer. */
  touch?: boolean;
}

export interface TestBrowser {
  context: BrowserContext;
  newPage(): Promise<Page>;
  /**
   * A page in a new context of the same browser: nothing shared with other pages (storage,
   * cache, permissions), for tests that run at the same time. Closing the page closes its context.
   */
  isolatedPage(options?: ContextOptions): Promise<Page>;
  close(): Promise<void>;
}

function contextOptions(options: ContextOptions) {
  const touch = options.touch ? { hasTouch: true, isMobile: true } : {};
  return { viewport: options.viewport ?? { width: 1280, height: 900 }, javaScriptEnabled: options.javaScriptEnabled ?? true, ...touch };
}

export async function launchBrowser(options: ContextOptions = {}): Promise<TestBrowser> {
  const shared = process.env[SHARED_BROWSER_ENV];
  // A connected client's close() only disconnects (and closes its contexts); the shared Chromium runs on.
  const browser: Browser = shared ? await chromium.connect(shared) : await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const context = await browser.newContext(contextOptions(options));
    return {
      context,
      newPage: () => context.newPage(),
      async isolatedPage(own = options) {
        const isolated = await browser.newContext(contextOptions(own));
        const page = await isolated.newPage();
        page.once('close', () => void isolated.close().catch(() => undefined));
        return page;
      },
      async close() {
        await context.close();
        await browser.close();
      },
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** Collects console errors and page errors so a test can assert there were none. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
