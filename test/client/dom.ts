/**
 * A browser page for tests of the client code, made by happy-dom in the test's own
 * process: the globals the client modules read (window, document, CSS, Element classes)
 * point at it until the test ends. A test that needs a real engine (layout, focus,
 * navigation between real pages) belongs in test/browser/.
 */
import { Window } from 'happy-dom';
import type { CleanupOwner } from '../helpers/temp.ts';

const GLOBALS = ['window', 'document', 'navigator', 'location', 'history', 'localStorage', 'CSS', 'Node', 'Element', 'HTMLElement', 'HTMLAnchorElement', 'HTMLButtonElement', 'DOMParser', 'Event', 'KeyboardEvent', 'MouseEvent'] as const;

/** Installs a page at `url` whose body is `body`; removed when `owner` ends. */
export function installDom(owner: CleanupOwner, body = '', url = 'https://docs.example/docs/intro'): Window {
  const window = new Window({ url });
  window.document.body.innerHTML = body;
  const scope = globalThis as Record<string, unknown>;
  const saved = new Map(GLOBALS.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]));
  for (const name of GLOBALS) Object.defineProperty(globalThis, name, { value: name === 'window' ? window : (window as unknown as Record<string, unknown>)[name], configurable: true, writable: true });
  owner.after(async () => {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else delete scope[name];
    }
    await window.happyDOM.close();
  });
  return window;
}
