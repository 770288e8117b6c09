/**
 * The request samples the server-rendered API reference shows, read from the page, so
 * that its console (Stoplight Elements) offers the same ones. Apart from the island so it
 * can be tested without loading Elements.
 */
import { API_DATA } from '../../shared/api-reference.ts';

/** The request samples of the server-rendered reference, by operationId, to show the same ones in Elements. */
export type CodeSample = { lang: string; lib?: string; label: string; source: string };

/**
 * Languages for which Elements 9 lists no libraries (its requestSampleConfigs): a sample
 * for them replaces the language's own and must not name a library, or Elements adds a
 * mislabelled one. For the others, `lib` picks the library whose sample it replaces.
 */
const ELEMENTS_LANGUAGES_WITHOUT_LIBRARIES = new Set(['go', 'kotlin', 'ruby', 'c', 'objc', 'ocaml', 'clojure', 'swift']);

export function samplesOfPage(page: ParentNode): Map<string, CodeSample[]> {
  const out = new Map<string, CodeSample[]>();
  for (const box of page.querySelectorAll<HTMLElement>(`[${API_DATA.samples}]`)) {
    const operationId = box.closest('article')?.querySelector(`[${API_DATA.tryOperation}]`)?.getAttribute(API_DATA.tryOperation);
    if (!operationId) continue;
    const tabs = [...box.querySelectorAll<HTMLElement>('[role="tab"]')];
    const panels = [...box.querySelectorAll<HTMLElement>('[role="tabpanel"]')];
    out.set(
      operationId,
      panels.flatMap((panel, i) => {
        // A sample the reader has not opened is still a template (<Tabs lazy>): read from its template.
        const sample = (panel.querySelector<HTMLTemplateElement>(':scope > template')?.content ?? panel).querySelector(`[${API_DATA.sampleTarget}]`);
        const code = sample?.querySelector('pre code');
        const lang = sample?.getAttribute(API_DATA.sampleTarget);
        if (!sample || !code || !lang) return [];
        const lines = [...code.querySelectorAll('.line')].map((line) => line.textContent ?? '');
        const lib = ELEMENTS_LANGUAGES_WITHOUT_LIBRARIES.has(lang) ? undefined : sample.getAttribute(API_DATA.sampleClient);
        return [{ lang, ...(lib ? { lib } : {}), label: tabs[i]?.textContent ?? lang, source: lines.length ? lines.join('\n') : (code.textContent ?? '') }];
      }),
    );
  }
  return out;
}
