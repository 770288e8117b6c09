/**
 * scopeCss, which confines Stoplight Elements' stylesheet to the API reference island:
 * what each kind of selector becomes, and what it leaves alone.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { API_REFERENCE_SCOPE } from '../../../templates/shared/api-reference.ts';
import { scopeCss } from '../../../cli/stages/scope-css.ts';

const scope = API_REFERENCE_SCOPE;
const w = `:where(${scope})`;

describe('scopeCss', () => {
  it('prefixes other selectors and keeps their specificity with :where()', () => {
    assert.equal(scopeCss('.x{a:b}.x .y>p{c:d}', scope), `${w} .x{a:b}${w} .x .y>p{c:d}`);
    assert.equal(scopeCss('h1,h2{margin:0}a{color:inherit}', scope), `${w} h1,${w} h2{margin:0}${w} a{color:inherit}`);
    assert.equal(scopeCss(':focus{outline:none}*,:after{box-sizing:border-box}', scope), `${w} :focus{outline:none}${w} *,${w} :after{box-sizing:border-box}`);
  });

  it('turns :root and html into the scope itself', () => {
    assert.equal(scopeCss(':root{--x:1}', scope), `${w}{--x:1}`);
    assert.equal(scopeCss('html{font-family:a}html>a{b:c}', scope), `${w}{font-family:a}${w}>a{b:c}`);
    assert.equal(scopeCss('html.dark{a:b}', scope), `${w} html.dark{a:b}`, 'a compound selector on html is not the bare element');
  });

  it('drops body itself and scopes what is inside it', () => {
    assert.equal(scopeCss('body{margin:0}', scope), '');
    assert.equal(scopeCss('body,p{margin:0}', scope), `${w} p{margin:0}`);
    assert.equal(scopeCss('body .x{y:1}', scope), `${w} .x{y:1}`);
  });

  it("leaves rules that need Elements' own classes alone", () => {
    const own = '.sl-stack--1{gap:4px}.hover\\:sl-bg-primary:hover{color:red}.sl-prose td:not([align=center],[align=right]){text-align:left}';
    assert.equal(scopeCss(own, scope), own);
    assert.equal(scopeCss('h1:not(.sl-x){margin:0}', scope), `${w} h1:not(.sl-x){margin:0}`, ':not(.sl-…) still matches everything else');
  });

  it('keeps theme rules working for <html data-theme>', () => {
    assert.equal(scopeCss('[data-theme=dark] .sl-inverted{a:b}', scope), '[data-theme=dark] .sl-inverted{a:b}');
    assert.equal(scopeCss(':root,[data-theme=light]{--c:1}', scope), `${w},[data-theme=light] ${w},${w} [data-theme=light]{--c:1}`);
    assert.equal(scopeCss('[data-theme="dark"] p{a:b}', scope), `[data-theme="dark"] ${w} p,${w} [data-theme="dark"] p{a:b}`);
  });

  it('scopes rules inside @media, also nested in @supports', () => {
    assert.equal(scopeCss('@media (max-width:10px){ul{a:b}html{c:d}}', scope), `@media (max-width:10px){${w} ul{a:b}${w}{c:d}}`);
    assert.equal(scopeCss('@supports (display:grid){@media print{.x{a:b}}}', scope), `@supports (display:grid){@media print{${w} .x{a:b}}}`);
  });

  it('leaves @keyframes and @font-face untouched', () => {
    const untouched = '@keyframes spin{from{a:b}to{a:c}}@-webkit-keyframes spin{0%{a:b}50%,to{a:c}}@font-face{font-family:x}';
    assert.equal(scopeCss(untouched, scope), untouched);
  });

  it('is not misled by braces and commas in strings or comments', () => {
    assert.equal(scopeCss('a[title="{,}"]{content:"}"}/* p{} */p{x:y}', scope), `${w} a[title="{,}"]{content:"}"}/* p{} */${w} p{x:y}`);
  });
});
