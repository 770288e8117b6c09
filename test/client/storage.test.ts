/** Storage that never throws: choices kept in localStorage, or for this visit when the browser refuses it. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HEAD_DATA } from '../../templates/shared/index.ts';
import { installDom } from './dom.ts';

// The module keeps the choices of this visit in memory: each test uses keys of its own.
const { readStorage, writeStorage } = await import('../../templates/client/storage.ts');

function blockStorage(window: ReturnType<typeof installDom>): void {
  Object.defineProperty(window, 'localStorage', {
    configurable: true,
    get() {
      throw new window.DOMException('The operation is insecure.', 'SecurityError');
    },
  });
}

describe('client storage', () => {
  it('writes through to localStorage and reads back what was written', (t) => {
    const window = installDom(t);
    window.localStorage.setItem('test.stored-before', 'dark');
    assert.equal(readStorage('test.stored-before'), 'dark');
    writeStorage('test.written', 'light');
    assert.equal(window.localStorage.getItem('test.written'), 'light');
    assert.equal(readStorage('test.written'), 'light');
    assert.equal(readStorage('test.never-written'), null);
  });

  it('keeps a choice for this visit when storage is blocked, and warns once with the reason', (t) => {
    const window = installDom(t);
    blockStorage(window);
    const warn = t.mock.method(console, 'warn', () => undefined);
    assert.equal(readStorage('test.blocked-unknown'), null);
    writeStorage('test.blocked', 'pt');
    writeStorage('test.blocked-again', 'en');
    assert.equal(readStorage('test.blocked'), 'pt');
    assert.equal(readStorage('test.blocked-again'), 'en');
    assert.equal(warn.mock.callCount(), 1, 'one warning for the whole visit');
    assert.match(String(warn.mock.calls[0]!.arguments[0]), /storage is unavailable/);
    assert.ok(window.document.documentElement.hasAttribute(HEAD_DATA.storageUnavailable));
  });

  it('does not warn again when the head script already did', (t) => {
    const window = installDom(t);
    window.document.documentElement.setAttribute(HEAD_DATA.storageUnavailable, '');
    blockStorage(window);
    const warn = t.mock.method(console, 'warn', () => undefined);
    writeStorage('test.head-warned', 'x');
    assert.equal(readStorage('test.head-warned'), 'x');
    assert.equal(warn.mock.callCount(), 0);
  });
});
