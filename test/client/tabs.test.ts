/** Tabs in the page: the markup <Tabs> renders, driven by the client's click and key handlers. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { TabItem, Tabs } from '../../templates/components/Tabs.tsx';
import { DATA, STORAGE } from '../../templates/shared/index.ts';
import { installDom } from './dom.ts';

const { initTabs, restoreTabs } = await import('../../templates/client/tabs.ts');

/** Server-rendered tabs with the values given, the first one selected. */
function tabs(groupId: string | undefined, values: string[], lazy = false): string {
  return renderToStaticMarkup(createElement(Tabs, { groupId, lazy }, ...values.map((value) => createElement(TabItem, { key: value, value }, createElement('p', null, `panel ${value}`)))));
}

function state(root: Element): { selected: string[]; visible: string[] } {
  return {
    selected: [...root.querySelectorAll('[role="tab"][aria-selected="true"]')].map((b) => b.getAttribute(DATA.tabValue)!),
    visible: [...root.querySelectorAll('[role="tabpanel"]:not([hidden])')].map((p) => p.getAttribute(DATA.tabValue)!),
  };
}

describe('tabs (client)', () => {
  it('a click selects the tab in every Tabs of its group and remembers it; other groups stay', (t) => {
    const window = installDom(t, `${tabs('lang', ['js', 'py'])}${tabs('lang', ['js', 'py', 'go'])}${tabs('os', ['linux', 'mac'])}`);
    initTabs();
    const [first, second, other] = [...window.document.querySelectorAll(`[${DATA.tabs}]`)];
    (first!.querySelector(`[${DATA.tabValue}="py"]`) as unknown as HTMLElement).click();
    assert.deepEqual(state(first as unknown as Element), { selected: ['py'], visible: ['py'] });
    assert.deepEqual(state(second as unknown as Element), { selected: ['py'], visible: ['py'] });
    assert.deepEqual(state(other as unknown as Element), { selected: ['linux'], visible: ['linux'] });
    assert.equal(window.localStorage.getItem(`${STORAGE.tabPrefix}lang`), 'py');
    const tabIndexes = [...first!.querySelectorAll('[role="tab"]')].map((b) => (b as unknown as HTMLElement).tabIndex);
    assert.deepEqual(tabIndexes, [-1, 0], 'only the selected tab is in the tab order');
  });

  it('a Tabs without a group switches alone and stores nothing', (t) => {
    const window = installDom(t, `${tabs(undefined, ['a', 'b'])}${tabs(undefined, ['a', 'b'])}`);
    initTabs();
    const [first, second] = [...window.document.querySelectorAll(`[${DATA.tabs}]`)];
    (first!.querySelector(`[${DATA.tabValue}="b"]`) as unknown as HTMLElement).click();
    assert.deepEqual(state(first as unknown as Element).selected, ['b']);
    assert.deepEqual(state(second as unknown as Element).selected, ['a']);
    assert.equal(window.localStorage.length, 0);
  });

  it('arrow keys, Home and End move the selection and the focus, wrapping around', (t) => {
    const window = installDom(t, tabs('keys', ['one', 'two', 'three']));
    initTabs();
    const root = window.document.querySelector(`[${DATA.tabs}]`)! as unknown as Element;
    const press = (key: string) => {
      const focused = (window.document.activeElement ?? root.querySelector('[aria-selected="true"]'))!;
      focused.dispatchEvent(new window.KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
      return [state(root).selected[0], (window.document.activeElement as unknown as Element | null)?.getAttribute(DATA.tabValue)];
    };
    (root.querySelector('[aria-selected="true"]') as HTMLElement).focus();
    assert.deepEqual(press('ArrowLeft'), ['three', 'three']);
    assert.deepEqual(press('ArrowRight'), ['one', 'one']);
    assert.deepEqual(press('End'), ['three', 'three']);
    assert.deepEqual(press('Home'), ['one', 'one']);
    assert.deepEqual(press('a'), ['one', 'one'], 'other keys do nothing');
  });

  it('restoreTabs applies a remembered choice, and ignores one no tab offers', (t) => {
    const window = installDom(t, `${tabs('pkg', ['npm', 'yarn'])}${tabs('pm', ['npm', 'yarn'])}`);
    window.localStorage.setItem(`${STORAGE.tabPrefix}pkg`, 'yarn');
    window.localStorage.setItem(`${STORAGE.tabPrefix}pm`, 'pnpm');
    restoreTabs();
    const [pkg, pm] = [...window.document.querySelectorAll(`[${DATA.tabs}]`)] as unknown as Element[];
    assert.deepEqual(state(pkg!), { selected: ['yarn'], visible: ['yarn'] });
    assert.deepEqual(state(pm!), { selected: ['npm'], visible: ['npm'] });
  });

  it('lazy tabs send the panels not shown as templates, made into elements the first time they are shown', (t) => {
    const html = tabs('sdk', ['curl', 'node', 'go'], true);
    assert.match(html, /data-tab-value="curl"><p>panel curl<\/p><\/div>/, 'the selected panel is elements');
    assert.match(html, /hidden="" data-tab-value="node"><template><p>panel node<\/p><\/template><\/div>/, 'the others are templates');
    const window = installDom(t, html);
    initTabs();
    const root = window.document.querySelector(`[${DATA.tabs}]`)! as unknown as Element;
    const panel = (value: string) => root.querySelector(`[role="tabpanel"][${DATA.tabValue}="${value}"]`)!;
    assert.equal(root.querySelectorAll('p').length, 1, 'only the shown panel is in the document');
    (root.querySelector(`[role="tab"][${DATA.tabValue}="node"]`) as unknown as HTMLElement).click();
    assert.deepEqual(state(root), { selected: ['node'], visible: ['node'] });
    assert.equal(panel('node').innerHTML, '<p>panel node</p>');
    assert.equal(panel('go').querySelector(':scope > template')?.innerHTML, '<p>panel go</p>', 'a panel never shown stays a template');
    (root.querySelector(`[role="tab"][${DATA.tabValue}="curl"]`) as unknown as HTMLElement).click();
    (root.querySelector(`[role="tab"][${DATA.tabValue}="node"]`) as unknown as HTMLElement).click();
    assert.equal(panel('node').innerHTML, '<p>panel node</p>', 'shown again, as it was');
  });

  it('restoreTabs makes a remembered lazy panel into elements', (t) => {
    // A group no other test chose in: the storage module keeps a visit's choices in memory.
    const window = installDom(t, tabs('http-client', ['curl', 'python'], true));
    window.localStorage.setItem(`${STORAGE.tabPrefix}http-client`, 'python');
    restoreTabs();
    const root = window.document.querySelector(`[${DATA.tabs}]`)! as unknown as Element;
    assert.deepEqual(state(root), { selected: ['python'], visible: ['python'] });
    assert.equal(root.querySelector(`[role="tabpanel"]:not([hidden])`)!.innerHTML, '<p>panel python</p>');
  });

  it('before printing, every lazy panel becomes elements (a page may print them all), still hidden on screen', (t) => {
    const window = installDom(t, tabs('print', ['curl', 'node', 'go'], true));
    initTabs();
    window.dispatchEvent(new window.Event('beforeprint'));
    const root = window.document.querySelector(`[${DATA.tabs}]`)! as unknown as Element;
    assert.equal(root.querySelectorAll('template').length, 0);
    assert.deepEqual([...root.querySelectorAll('p')].map((p) => p.textContent), ['panel curl', 'panel node', 'panel go']);
    assert.deepEqual(state(root), { selected: ['curl'], visible: ['curl'] });
  });
});
