import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createElement, type ReactNode } from 'react';
import remarkDirective from 'remark-directive';
import remarkAdmonitions from '../../../cli/mdx/remark-admonitions.ts';
import { renderMdx } from './render-mdx.ts';

/** Shows the props <Admonition> gets. */
const Admonition = ({ type, title, children }: { type: string; title?: string; children?: ReactNode }) =>
  createElement('aside', { 'data-type': type, 'data-title': title }, children);
const render = (source: string) => renderMdx(source, { remarkPlugins: [remarkDirective, remarkAdmonitions] }, { Admonition });

describe('remark-admonitions', () => {
  it('turns :::type containers into <Admonition>, with the [label] as title', async () => {
    assert.equal(await render(':::tip[Dica rápida]\nUse o **sandbox**.\n:::\n'), '<aside data-type="tip" data-title="Dica rápida"><p>Use o <strong>sandbox</strong>.</p></aside>');
    assert.equal(await render(':::warning\nCuidado.\n:::\n'), '<aside data-type="warning"><p>Cuidado.</p></aside>');
  });

  it('keeps the content of a container that is not an admonition, without a wrapper', async () => {
    assert.equal(await render(':::unknown\nTexto.\n:::\n'), '<p>Texto.</p>');
  });

  it('puts text and leaf directives back as the text they were', async () => {
    assert.equal(await render('O status:approved volta e a hora 10:30 também.\n'), '<p>O status:approved volta e a hora 10:30 também.</p>');
    assert.equal(await render('::nota\n'), '<p>::nota</p>');
  });
});
