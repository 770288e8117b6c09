/** morph(): a live element becomes a copy of a parsed one, replacing only the parts that differ. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { installDom } from './dom.ts';

const { keepLive, morph } = await import('../../templates/client/morph.ts');

function parse(window: ReturnType<typeof installDom>, html: string): Element {
  const doc = new window.DOMParser().parseFromString(`<!DOCTYPE html><body>${html}</body>`, 'text/html');
  return doc.body.firstElementChild as unknown as Element;
}

describe('morph (client)', () => {
  it('keeps the nodes that did not change and replaces only the changed subtree', (t) => {
    const window = installDom(t, '<main><h1>Title</h1><p id="a">First</p><section><p>Old text</p></section></main>');
    const live = window.document.querySelector('main') as unknown as Element;
    const [h1, first, section] = [...live.children];
    morph(live, parse(window, '<main><h1>Title</h1><p id="a">First</p><section><p>New text</p></section></main>'));
    const now = window.document.querySelector('main') as unknown as Element;
    assert.equal(now, live, 'the root element is kept');
    assert.equal(now.children[0], h1);
    assert.equal(now.children[1], first);
    assert.equal(now.children[2], section, 'an element whose children changed is kept and morphed');
    assert.equal(now.outerHTML, '<main><h1>Title</h1><p id="a">First</p><section><p>New text</p></section></main>');
  });

  it('replaces an element whose tag, attributes or number of children differ', (t) => {
    const window = installDom(t, '<div><p class="x">a</p><ul><li>1</li></ul><span>s</span></div>');
    const live = window.document.querySelector('div') as unknown as Element;
    const [p, ul, span] = [...live.children];
    morph(live, parse(window, '<div><p class="y">a</p><ul><li>1</li><li>2</li></ul><em>s</em></div>'));
    assert.equal(live.outerHTML, '<div><p class="y">a</p><ul><li>1</li><li>2</li></ul><em>s</em></div>');
    assert.notEqual(live.children[0], p);
    assert.notEqual(live.children[1], ul);
    assert.notEqual(live.children[2], span);
  });

  it('keepLive leaves a part as the reader changed it', (t) => {
    const window = installDom(t, '<nav><details open><summary>Guia</summary></details><p>old</p></nav>');
    const live = window.document.querySelector('nav') as unknown as Element;
    const details = live.querySelector('details')!;
    const next = parse(window, '<nav><details><summary>Guia</summary></details><p>new</p></nav>');
    keepLive(details, next.querySelector('details')!);
    morph(live, next);
    assert.equal(live.querySelector('details'), details, 'the open category is the same element');
    assert.ok(details.hasAttribute('open'));
    assert.equal(live.querySelector('p')!.textContent, 'new');
  });

  it("sees a change inside a template, whose content isEqualNode() does not compare", (t) => {
    const window = installDom(t, '<div><section><p>same</p><template><pre>old sample</pre></template></section></div>');
    const live = window.document.querySelector('div') as unknown as Element;
    morph(live, parse(window, '<div><section><p>same</p><template><pre>new sample</pre></template></section></div>'));
    assert.equal(live.querySelector('template')!.innerHTML, '<pre>new sample</pre>');
    const kept = live.querySelector('p');
    morph(live, parse(window, '<div><section><p>same</p><template><pre>new sample</pre></template></section></div>'));
    assert.equal(live.querySelector('p'), kept, 'equal templates change nothing');
  });
});
