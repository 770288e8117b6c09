/** When watch mode swaps stylesheets in open pages instead of reloading them (cli/watch/css-swap.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cssSwapOf } from '../../../cli/watch/css-swap.ts';

const page = (sheet: string) => `<!DOCTYPE html><html><head><link rel="stylesheet" href="/assets/${sheet}"></head><body><h1>Doc</h1></body></html>`;
const texts = (files: Record<string, string>) => (rel: string) => files[rel];

describe('stylesheet swap', () => {
  it('swaps a new stylesheet for the old one when pages differ only by its URL', () => {
    const before = texts({ 'docs/a.html': page('styles-ORIG.css'), 'assets/styles-ORIG.css': 'a{}' });
    const after = texts({ 'docs/a.html': page('styles-EDIT.css'), 'assets/styles-EDIT.css': 'a{color:red}' });
    assert.deepEqual(cssSwapOf(['assets/styles-EDIT.css', 'docs/a.html'], ['assets/styles-ORIG.css'], before, after), { '/assets/styles-ORIG.css': '/assets/styles-EDIT.css' });
  });

  it('swaps back to a stylesheet whose file is still there, not yet cleaned up after the edit before', () => {
    // Undo right after an edit: the original sheet's file was never removed, so it is not written again.
    const files = { 'assets/styles-ORIG.css': 'a{}', 'assets/styles-EDIT.css': 'a{color:red}' };
    const before = texts({ ...files, 'docs/a.html': page('styles-EDIT.css') });
    const after = texts({ 'assets/styles-ORIG.css': 'a{}', 'docs/a.html': page('styles-ORIG.css') });
    assert.equal(cssSwapOf(['docs/a.html'], ['assets/styles-EDIT.css'], before, after), undefined, 'without the files already there, nothing says which sheet is new');
    assert.deepEqual(cssSwapOf(['docs/a.html'], ['assets/styles-EDIT.css'], before, after, ['assets/styles-ORIG.css']), { '/assets/styles-EDIT.css': '/assets/styles-ORIG.css' });
  });

  it('picks the stylesheet the pages linked to when an older one of the same name is still there', () => {
    const before = texts({ 'docs/a.html': page('styles-TWO.css'), 'assets/styles-ONE.css': 'a{}', 'assets/styles-TWO.css': 'b{}' });
    const after = texts({ 'docs/a.html': page('styles-THREE.css'), 'assets/styles-THREE.css': 'c{}' });
    assert.deepEqual(cssSwapOf(['assets/styles-THREE.css', 'docs/a.html'], ['assets/styles-ONE.css', 'assets/styles-TWO.css'], before, after), { '/assets/styles-TWO.css': '/assets/styles-THREE.css' });
  });

  it('reloads instead when anything else changed: a page, a script, a removed page', () => {
    const before = texts({ 'docs/a.html': page('styles-ORIG.css') });
    const after = texts({ 'docs/a.html': page('styles-EDIT.css').replace('Doc', 'Other'), 'assets/styles-EDIT.css': 'x' });
    assert.equal(cssSwapOf(['assets/styles-EDIT.css', 'docs/a.html'], ['assets/styles-ORIG.css'], before, after), undefined, 'the page changed beyond the URL');
    const same = texts({ 'docs/a.html': page('styles-EDIT.css'), 'assets/styles-EDIT.css': 'x' });
    assert.equal(cssSwapOf(['assets/styles-EDIT.css', 'assets/main-X.js', 'docs/a.html'], ['assets/styles-ORIG.css'], before, same), undefined, 'a script changed too');
    assert.equal(cssSwapOf(['assets/styles-EDIT.css'], ['assets/styles-ORIG.css', 'docs/b.html'], before, same), undefined, 'a page went');
  });
});
