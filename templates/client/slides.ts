/** Presentation mode for <SlideDeck>: one slide at a time, keyboard navigable. */
export function initSlideDecks(): void {
  document.addEventListener('click', (event) => {
    const target = event.target as Element | null;
    const deck = target?.closest?.<HTMLElement>('[data-slide-deck]');
    if (!deck) return;
    if (target?.closest('[data-slide-present]')) present(deck, 0);
    else if (target?.closest('[data-slide-next]')) move(deck, 1);
    else if (target?.closest('[data-slide-prev]')) move(deck, -1);
    else if (target?.closest('[data-slide-exit]')) exit(deck);
  });
  document.addEventListener('keydown', (event) => {
    const deck = document.querySelector<HTMLElement>('[data-slide-deck].slide-deck--presenting');
    if (!deck) return;
    if (['ArrowRight', 'PageDown', ' '].includes(event.key)) move(deck, 1);
    else if (['ArrowLeft', 'PageUp'].includes(event.key)) move(deck, -1);
    else if (event.key === 'Home') present(deck, 0);
    else if (event.key === 'End') present(deck, slides(deck).length - 1);
    else if (event.key === 'Escape') exit(deck);
    else return;
    event.preventDefault();
  });
}

function slides(deck: HTMLElement): HTMLElement[] {
  return Array.from(deck.querySelectorAll<HTMLElement>('[data-slide]'));
}

function present(deck: HTMLElement, index: number): void {
  const all = slides(deck);
  const current = Math.max(0, Math.min(index, all.length - 1));
  deck.classList.add('slide-deck--presenting');
  deck.dataset.current = String(current);
  all.forEach((slide, i) => {
    slide.hidden = i !== current;
  });
  const controls = deck.querySelector<HTMLElement>('.slide-deck__controls');
  if (controls) controls.hidden = false;
  const count = deck.querySelector('.slide-deck__count');
  if (count) count.textContent = `Slide ${current + 1} of ${all.length}`;
  deck.tabIndex = -1;
  deck.focus({ preventScroll: true });
  deck.scrollIntoView({ block: 'start' });
}

function move(deck: HTMLElement, delta: number): void {
  present(deck, Number(deck.dataset.current ?? 0) + delta);
}

function exit(deck: HTMLElement): void {
  deck.classList.remove('slide-deck--presenting');
  for (const slide of slides(deck)) slide.hidden = false;
  const controls = deck.querySelector<HTMLElement>('.slide-deck__controls');
  if (controls) controls.hidden = true;
  const count = deck.querySelector('.slide-deck__count');
  if (count) count.textContent = `${slides(deck).length} slides`;
  deck.querySelector<HTMLElement>('[data-slide-present]')?.focus();
}
