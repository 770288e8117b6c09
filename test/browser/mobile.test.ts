/**
 * What phones and keyboards get on the real site, in Chromium: no page wider than the
 * screen at 360-414 px, boxes that scroll sideways (wide tables, sequence diagrams) as
 * labelled regions a keyboard can scroll, navbar touch targets of 44 x 44 px, and no
 * search or colour-mode button shown where JavaScript does not run.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { TestBrowser } from '../helpers/browser.ts';
import { useSiteAndBrowsers } from './harness.ts';

const PAGES = ['/', '/docs/anexo/flow', '/docs/api/pagamento', '/docs/documentacao/introducao', '/docs/sdk/telas', '/docs/doc1'];
const WIDTHS = [360, 390, 414];
const MIN_TARGET = 44;

describe('phones and keyboards (real site)', () => {
  const env = useSiteAndBrowsers();

  async function open(route: string, width: number, from?: TestBrowser): Promise<Page> {
    const page = await (from ?? env.browser).newPage();
    page.setDefaultTimeout(8000);
    await page.setViewportSize({ width, height: 800 });
    await page.goto(env.server.url + route, { waitUntil: 'load' });
    return page;
  }

  it('no doc page and not the home page scrolls sideways at 360, 390 and 414 px', async () => {
    // One page, loaded anew for each route and width: a tab costs Chromium more than a load.
    const wide: string[] = [];
    const page = await env.browser.newPage();
    page.setDefaultTimeout(8000);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      for (const route of PAGES) {
        await page.goto(env.server.url + route, { waitUntil: 'load' });
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        if (scrollWidth > width) wide.push(`${route} at ${width} px is ${scrollWidth} px wide`);
      }
    }
    await page.close();
    assert.deepEqual(wide, []);
  });

  it('boxes that scroll sideways are labelled regions that take focus and scroll from the keyboard', async () => {
    for (const route of ['/docs/anexo/flow', '/docs/api/pagamento']) {
      const page = await open(route, 390);
      const boxes = await page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLElement>('main *'))
          .filter((el) => el.scrollWidth > el.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(el).overflowX))
          .map((el, i) => {
            el.dataset.scrollBox = String(i);
            return { i, className: el.className, tabindex: el.getAttribute('tabindex'), role: el.getAttribute('role'), label: el.getAttribute('aria-label') ?? '' };
          }),
      );
      assert.ok(boxes.length > 0, `${route} has boxes wider than a phone`);
      for (const box of boxes) {
        assert.equal(box.tabindex, '0', `${route}: ${box.className} takes focus`);
        // Code blocks name themselves by their text; tables and diagrams need a name to say what the region holds.
        if (!box.className.includes('shiki')) assert.deepEqual([box.role, box.label.length > 0], ['region', true], `${route}: ${box.className} is a labelled region`);
        const selector = `[data-scroll-box="${box.i}"]`;
        await page.focus(selector);
        await page.keyboard.press('ArrowRight');
        await page.waitForFunction((s) => document.querySelector(s)!.scrollLeft > 0, selector).catch(async (error: unknown) => {
          const focused = await page.evaluate(() => `${document.activeElement?.tagName ?? ''}.${document.activeElement?.className ?? ''}`);
          assert.fail(`${route}: ${box.className} did not scroll on ArrowRight (focus on ${focused}): ${String(error)}`);
        });
      }
      await page.close();
    }
    const desktop = await open('/docs/anexo/flow', 1280);
    const overflowing = await desktop.evaluate(() => Array.from(document.querySelectorAll<HTMLElement>('.seq__scroll')).filter((el) => el.scrollWidth > el.clientWidth + 1).length);
    assert.equal(overflowing, 0, 'on a desktop column the diagrams scale to fit');
    await desktop.close();
  });

  it("a code block's Copy button, always shown on a phone, covers no line of code", async () => {
    for (const route of ['/docs/api/cancelamento', '/docs/sdk/telas']) {
      const page = await open(route, 390);
      const blocks = await page.evaluate(() =>
        Array.from(document.querySelectorAll('.code-block__body')).map((body) => {
          const button = body.querySelector('.code-block__copy')!.getBoundingClientRect();
          const line = body.querySelector('.line')!.getBoundingClientRect();
          return { opacity: getComputedStyle(body.querySelector('.code-block__copy')!).opacity, buttonBottom: button.bottom, lineTop: line.top };
        }),
      );
      assert.ok(blocks.length > 0, `${route} has code blocks`);
      for (const [i, block] of blocks.entries()) {
        assert.equal(block.opacity, '1', `${route}, block ${i + 1}: the button shows without hover`);
        assert.ok(block.buttonBottom <= block.lineTop, `${route}, block ${i + 1}: the button ends (${block.buttonBottom}) above the first line (${block.lineTop})`);
      }
      await page.close();
    }
  });

  it("scrolled on a phone, a long API sample passes no line of code under its Copy button", async () => {
    for (const route of ['/api-reference', '/onboarding-api-reference']) {
      const page = await open(route, 390);
      // Every visible sample taller than its box, scrolled to a few depths: the first lines, a third, two thirds, the end.
      const covered = await page.evaluate(() => {
        const samples = Array.from(document.querySelectorAll<HTMLElement>('.api-op .code-block pre')).filter((pre) => pre.checkVisibility() && pre.scrollHeight > pre.clientHeight + 1);
        const found: string[] = [];
        for (const [i, pre] of samples.entries()) {
          const button = pre.closest('.code-block__body')!.querySelector('.code-block__copy')!;
          const range = pre.scrollHeight - pre.clientHeight;
          for (const scrollTop of [20, Math.round(range / 3), Math.round((2 * range) / 3), range]) {
            pre.scrollTop = scrollTop;
            const box = pre.getBoundingClientRect();
            // The box's scrollport: a line clipped out of it is not on screen, whatever its rectangle says.
            const port = new DOMRect(box.left + pre.clientLeft, box.top + pre.clientTop, pre.clientWidth, pre.clientHeight);
            const buttonBox = button.getBoundingClientRect();
            // What shows of each line is its part inside the scrollport; that part must not meet the button.
            // (Inline rather than a named helper: tsx would wrap one in a __name() call the page does not have.)
            const hidden = Array.from(pre.querySelectorAll('.line')).filter((line) => {
              const l = line.getBoundingClientRect();
              const top = Math.max(l.top, port.top);
              const bottom = Math.min(l.bottom, port.bottom);
              const left = Math.max(l.left, port.left);
              const right = Math.min(l.right, port.right);
              return top < bottom && left < right && top < buttonBox.bottom && buttonBox.top < bottom && left < buttonBox.right && buttonBox.left < right;
            });
            if (hidden.length > 0) found.push(`sample ${i + 1} scrolled by ${scrollTop} px: ${hidden.length} line(s) under the button, the first "${hidden[0]!.textContent!.trim().slice(0, 40)}"`);
          }
        }
        return { samples: samples.length, found };
      });
      assert.ok(covered.samples > 0, `${route} has a sample that scrolls at 390 px`);
      assert.deepEqual(covered.found, [], `${route}: lines pass under the Copy button`);
      await page.close();
    }
  });

  it('navbar and mobile menu controls are touch targets of at least 44 x 44 px', async () => {
    const page = await open('/docs/api/pagamento', 390);
    const sizes = (selector: string) =>
      page.evaluate(
        (s) =>
          Array.from(document.querySelectorAll<HTMLElement>(s))
            .filter((el) => el.getClientRects().length > 0)
            .map((el) => ({ el: el.className || el.tagName, width: Math.round(el.getBoundingClientRect().width), height: Math.round(el.getBoundingClientRect().height) })),
        selector,
      );
    const small = (list: { el: string; width: number; height: number }[]) => list.filter((s) => s.width < MIN_TARGET || s.height < MIN_TARGET);
    const navbar = await sizes('.navbar__inner button, .navbar__inner a');
    assert.ok(navbar.length >= 3, 'menu button, brand and search show');
    assert.deepEqual(small(navbar), []);
    await page.getByRole('button', { name: 'Toggle navigation bar' }).click();
    await page.locator('#mobile-menu .mobile-menu__panel').waitFor({ state: 'visible' });
    const header = await sizes('.mobile-menu__header button, .mobile-menu__header a');
    assert.ok(header.length >= 3, 'brand, colour mode and close show');
    assert.deepEqual(small(header), []);
    await page.close();
  });

  it("the phone menu lists the navbar's version and language dropdowns as groups a keyboard opens", async () => {
    const page = await open('/docs/sdk/introducao', 390);
    await page.setViewportSize({ width: 390, height: 844 });
    const menu = page.locator('#mobile-menu');
    await page.getByRole('button', { name: 'Toggle navigation bar' }).click();
    await menu.locator('.mobile-menu__panel').waitFor({ state: 'visible' });
    // A doc page opens the menu on its sidebar; the navbar's items are one step back.
    await page.getByRole('button', { name: '← Back to main menu' }).press('Enter');
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    const tabTo = async (text: string) => {
      for (let i = 0; i < 20 && (await focused()) !== text; i++) await page.keyboard.press('Tab');
      assert.equal(await focused(), text, `Tab reaches "${text}"`);
    };
    const groups = menu.locator('.mobile-menu__primary details');
    assert.equal(await groups.count(), 2, 'a group for the docs version and one for the language');
    const [version, language] = [groups.nth(0), groups.nth(1)];
    assert.equal(await version.locator('a', { hasText: 'Next' }).isVisible(), false, 'groups start closed');

    await tabTo('Docs version: Next');
    await page.keyboard.press('Enter');
    assert.equal(await version.evaluate((el) => (el as HTMLDetailsElement).open), true, 'Enter opens the version group');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('href')), '/docs', 'its version link comes next');

    await tabTo('Language: English');
    await page.keyboard.press(' ');
    assert.equal(await language.evaluate((el) => (el as HTMLDetailsElement).open), true, 'Space opens the language group');
    const english = language.locator('a[lang="en"][aria-current="true"]');
    assert.equal(await english.isVisible(), true);
    assert.equal(await english.getAttribute('href'), '/docs/sdk/introducao', 'English leads to this page');
    await page.keyboard.press('Enter');
    assert.equal(await language.evaluate((el) => (el as HTMLDetailsElement).open), false, 'Enter closes it again');
    await page.close();

    // As on the navbar, the version is offered on docs pages only.
    const blog = await open('/blog', 390);
    await blog.getByRole('button', { name: 'Toggle navigation bar' }).click();
    await blog.getByRole('button', { name: '← Back to main menu' }).click();
    const summaries = await blog.locator('#mobile-menu .mobile-menu__primary summary').allTextContents();
    assert.deepEqual(summaries.map((t) => t.trim()), ['Language: English']);
    await blog.close();
  });

  it('without JavaScript, search, the colour-mode switch and the menu button are not shown (on phones the docs sidebar follows the page); with it they are', async () => {
    const controls = ['.navbar__search', '.navbar__items--right [data-theme-toggle]'];
    const shown = (page: Page) => Promise.all(controls.map((selector) => page.locator(selector).isVisible()));
    const plain = await open('/docs/api/pagamento', 1280, env.noScript);
    assert.deepEqual(await shown(plain), [false, false]);
    await plain.close();
    const scripted = await open('/docs/api/pagamento', 1280);
    assert.deepEqual(await shown(scripted), [true, true]);
    await scripted.close();
    // On a phone the menu button could not open anything: the docs sidebar follows the page instead.
    const phone = await open('/docs/api/pagamento', 390, env.noScript);
    assert.equal(await phone.locator('.navbar__toggle').isVisible(), false);
    assert.equal(await phone.locator('.doc-sidebar a.menu__caret', { hasText: 'Anexos' }).isVisible(), true);
    const [article, sidebar] = await Promise.all(['.doc-article', '.doc-sidebar'].map((s) => phone.locator(s).boundingBox()));
    assert.ok(article && sidebar && sidebar.y >= article.y + article.height, 'the sidebar comes after the page');
    assert.equal(await phone.evaluate(() => document.documentElement.scrollWidth), 390);
    await phone.close();
  });
});
