/**
 * "Copy page": fetches the page's Markdown twin and puts it on the clipboard. Loaded by
 * the first click on the button (main.ts) through the islands manifest, like an island
 * but with nothing to mount.
 *
 * It imports templates/shared/ like every other entry: esbuild keeps its runtime helpers in the
 * chunk of the code all entries share, and an entry sharing nothing would split them
 * into one more chunk that every page loads.
 */
import { DATA } from '../../shared/index.ts';
const RESET_MS = 2000;

export async function copyPage(button: HTMLButtonElement): Promise<void> {
  const nav = button.closest<HTMLElement>(`[${DATA.copyPage}]`);
  const href = nav?.getAttribute(DATA.copyPage);
  if (!nav || !href) return;
  const text = fetch(href).then((response) => {
    if (!response.ok) throw new Error(`${href} answered ${response.status}`);
    return response.text();
  });
  try {
    // A ClipboardItem takes the text still loading, so the write stays inside the click (Safari).
    if (typeof ClipboardItem === 'function' && typeof navigator.clipboard?.write === 'function') {
      await navigator.clipboard.write([new ClipboardItem({ 'text/plain': text.then((t) => new Blob([t], { type: 'text/plain' })) })]);
    } else {
      await navigator.clipboard.writeText(await text);
    }
  } catch {
    try {
      await navigator.clipboard.writeText(await text);
    } catch {
      // No clipboard (a plain-http origin, a refused permission): the reader gets the Markdown to copy by hand.
      window.location.assign(href);
      return;
    }
  }
  announce(nav, button);
}

function announce(nav: HTMLElement, button: HTMLButtonElement): void {
  const status = nav.querySelector<HTMLElement>('[role="status"]');
  const label = button.querySelector<HTMLElement>('.copy-page__label');
  const copied = status?.dataset.copied ?? '';
  const original = label?.textContent ?? '';
  if (status) status.textContent = copied;
  if (label) label.textContent = copied;
  button.classList.add('copy-page__button--copied');
  window.setTimeout(() => {
    if (status) status.textContent = '';
    if (label) label.textContent = original;
    button.classList.remove('copy-page__button--copied');
  }, RESET_MS);
}
