/**
 * Small helpers shared by the browser tests: a marker that only survives client
 * navigation, a log of the pages the router fetched, links injected for one test, and
 * clicks that neither move the mouse (no hover prefetch) nor scroll the page.
 */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, Request } from 'playwright-core';
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

/**
 * Resolves once the page's scroll has come to rest: the same position over several frames
 * in a row. A string, as tsx would wrap a named inner function in a helper the page lacks.
 */
const SCROLL_AT_REST = `new Promise((resolve) => {
  let last = '';
  let still = 0;
  const frame = () => {
    const now = window.scrollX + ',' + window.scrollY;
    still = now === last ? still + 1 : 0;
    last = now;
    if (still >= 5) resolve();
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})`;

export async function scrollSettled(page: Page): Promise<void> {
  await page.evaluate(SCROLL_AT_REST);
}

/** A page's requests from the time requestsInFlight() was called: how many began, how many are still in flight. */
export interface RequestTracker {
  started(): number;
  inFlight(): number;
}

export function requestsInFlight(page: Page): RequestTracker {
  // The requests themselves, not a count: one that began before this was called may end after.
  const open = new Set<Request>();
  let started = 0;
  page.on('request', (request) => {
    started++;
    open.add(request);
  });
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
  return { started: () => started, inFlight: () => open.size };
}

/** Resolves in the page once its main thread was idle and no animation or transition runs, a frame later. */
const IDLE_AND_STILL = `new Promise((resolve) => {
  window.requestIdleCallback(() => {
    const check = () => {
      if (document.getAnimations().every((a) => a.playState !== 'running')) requestAnimationFrame(() => resolve());
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, { timeout: 2000 });
})`;

/**
 * Resolves once whatever the reader's last input could start has run its course: the
 * main thread idle, no animation or transition running, no request in flight or newly started and, with
 * `scroll`, the scroll at rest. A load of Elements, a prefetch or a layout shift would
 * have begun by then, instead of after a fixed wait that is too long when idle and too
 * short under load.
 */
export async function quiet(page: Page, requests: RequestTracker, options: { scroll?: boolean; calmRounds?: number } = {}): Promise<void> {
  let calm = 0;
  for (let round = 0; ; round++) {
    const started = requests.started();
    if (options.scroll) await scrollSettled(page);
    await page.evaluate(IDLE_AND_STILL);
    // Quiet only when whole rounds of idle time started nothing (what the page schedules
    // for idle time, as prefetches, may run after a round's callback) and nothing is on its
    // way. To prove that something did not happen, ask for two rounds in a row.
    calm = requests.inFlight() === 0 && requests.started() === started ? calm + 1 : 0;
    if (calm >= (options.calmRounds ?? 1)) return;
    if (round > 400) assert.fail(`the page did not become quiet: ${requests.inFlight()} requests still in flight`);
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
