/**
 * Small helpers shared by the browser tests: a marker that only survives client
 * navigation, a log of the pages the router fetched, links injected for one test, and
 * clicks that neither move the mouse (no hover prefetch) nor scroll the page.
 */
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import type { RunningServer } from '../../cli/serve.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { serveBuiltSite } from '../helpers/site.ts';

declare global {
  interface Window {
    /** Set by a test; a full page load loses it, client navigation keeps it. */
    docsgenTestMarker?: string;
  }
}

export async function setMarker(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.docsgenTestMarker = 'still here';
  });
}

export async function markerSurvived(page: Page): Promise<boolean> {
  return page.evaluate(() => window.docsgenTestMarker === 'still here');
}

/** Paths of the requests made with fetch() (the router's page loads and prefetches), in order. */
export function fetchLog(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'fetch') paths.push(new URL(request.url()).pathname);
  });
  return paths;
}

/** Adds a link for this test at the top of the main content (or at the very end of the body). */
export async function injectLink(page: Page, href: string, id: string, where: 'top' | 'bottom' = 'top'): Promise<void> {
  await page.evaluate(
    ({ href, id, where }) => {
      const link = document.createElement('a');
      link.href = href;
      link.id = id;
      link.textContent = `test link ${id}`;
      if (where === 'top') (document.getElementById('main-content') ?? document.body).prepend(link);
      else document.body.append(link);
    },
    { href, id, where },
  );
}

/** element.click(): a real click event for the router, without hovering or scrolling first. */
/** The parts of a click a test varies (MouseEventInit itself is too deep for page.evaluate's types). */
export interface ClickInit {
  button?: number;
  ctrlKey?: boolean;
  metaKey?: boolean;
  shiftKey?: boolean;
  altKey?: boolean;
}

export async function clickInPage(page: Page, selector: string, init: ClickInit = {}): Promise<void> {
  await page.evaluate(
    ({ selector, init }) => {
      const element = document.querySelector(selector);
      if (!element) throw new Error(`no element matches ${selector}`);
      element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: window, button: 0, ...init }));
    },
    { selector, init },
  );
}

export async function waitForTitle(page: Page, title: string): Promise<void> {
  await page.waitForFunction((t) => document.title === t, title, { timeout: 10_000 });
}

/** Resolves once nothing has been fetched for `quietMs`: the prefetch of visible links has settled. */
export async function settle(log: string[], quietMs = 600, maxMs = 8000): Promise<void> {
  const start = Date.now();
  let count = log.length;
  let since = Date.now();
  while (Date.now() - start < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (log.length !== count) {
      count = log.length;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return;
  }
}

export interface SiteAndBrowsers {
  server: RunningServer;
  browser: TestBrowser;
  /** A browser with JavaScript disabled. */
  noScript: TestBrowser;
}

/**
 * For a describe() block: serves the built real site and launches two browsers, one
 * without JavaScript, before its tests; stops all three after them, also when one failed to start.
 */
export function useSiteAndBrowsers(): SiteAndBrowsers {
  const env = {} as SiteAndBrowsers;
  before(async () => {
    const started = [
      serveBuiltSite().then((s) => (env.server = s)),
      launchBrowser().then((b) => (env.browser = b)),
      launchBrowser({ javaScriptEnabled: false }).then((b) => (env.noScript = b)),
    ];
    await Promise.allSettled(started);
    await Promise.all(started);
  });
  after(async () => {
    await env.browser?.close();
    await env.noScript?.close();
    await env.server?.close();
  });
  return env;
}
