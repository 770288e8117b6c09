/**
 * Debian's Chromium driven by playwright-core, launched the way this project's
 * machines allow: no browser download, no background networking, a fresh profile.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

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

export interface TestBrowser {
  context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function launchBrowser(options: { viewport?: { width: number; height: number }; javaScriptEnabled?: boolean } = {}): Promise<TestBrowser> {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'docsgen-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: options.viewport ?? { width: 1280, height: 900 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  return {
    context,
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
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
