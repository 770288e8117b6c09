import { DATA } from '../shared/index.ts';

const RESET_MS = 2000;

/** Copy buttons on code blocks: copies the code's text and says "Copied" for two seconds. */
export function initCopyButtons(): void {
  document.addEventListener('click', async (event) => {
    const button = (event.target as Element | null)?.closest?.<HTMLButtonElement>(`[${DATA.copy}]`);
    if (!button) return;
    const code = button.closest('.code-block')?.querySelector('pre code');
    if (!code) return;
    const text = Array.from(code.querySelectorAll('.line'))
      .map((line) => line.textContent ?? '')
      .join('\n') || code.textContent || '';
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      fallbackCopy(text);
    }
    const label = button.querySelector('.code-block__copy-label');
    button.setAttribute('aria-label', 'Copied');
    button.classList.add('code-block__copy--copied');
    if (label) label.textContent = 'Copied';
    window.setTimeout(() => {
      button.setAttribute('aria-label', 'Copy code to clipboard');
      button.classList.remove('code-block__copy--copied');
      if (label) label.textContent = 'Copy';
    }, RESET_MS);
  });
}

/** Clipboard API is missing on plain http origins other than localhost. */
function fallbackCopy(text: string): void {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}
