/**
 * The language search analyses words in, chosen from the site's `contentLanguage` (or
 * its locale): which words are too common to search on, and which stemmer makes the
 * forms of a word meet ("payments" and "payment", "pagamentos" and "pagamento"). The
 * build indexes with it and the browser reads queries with the same one, named in the
 * index's meta; each stemmer is its own chunk, so a reader downloads only the site's.
 * A language without a stemmer here is still searched: folded, without stemming.
 */

export type Stemmer = (word: string) => string;

/** Language ids search knows: the primary subtag of a BCP 47 tag ('pt-BR' -> 'pt'). */
export const SEARCH_LANGUAGES = ['en', 'pt', 'es', 'fr', 'de', 'it'] as const;
export type SearchLanguageId = (typeof SEARCH_LANGUAGES)[number];

/**
 * Very common words that carry no meaning for search. The Portuguese list also has a few
 * English ones: Portuguese docs quote English API names and texts.
 */
const STOPWORDS: Partial<Record<SearchLanguageId, string>> = {
  pt:
    'ao aos as ate com como da das de do dos ela ele em entao entre era essa esse esta este eu foi ha isso isto ja la lhe mais mas me mesmo meu minha muito na nao nas nem no nos os ou para pela pelas pelo pelos por qual quando que se sem ser seu seus sua suas so tambem te tem um uma umas uns voce ' +
    'an and are for in is it of on or the to',
  en:
    'a an and are as at be but by can do does for from has have how if in into is it its no not of on or so than that the their then there these they this to was we what when which will with you your',
};

const LOADERS: Record<SearchLanguageId, () => Promise<{ stemmer: Stemmer }>> = {
  en: () => import('@orama/stemmers/english'),
  pt: () => import('@orama/stemmers/portuguese'),
  es: () => import('@orama/stemmers/spanish'),
  fr: () => import('@orama/stemmers/french'),
  de: () => import('@orama/stemmers/german'),
  it: () => import('@orama/stemmers/italian'),
};

/** The search language of a BCP 47 tag, or undefined when search has no stemmer for it. */
export function searchLanguageOf(tag: string | undefined): SearchLanguageId | undefined {
  const primary = tag?.split(/[-_]/)[0]?.toLowerCase();
  return SEARCH_LANGUAGES.find((id) => id === primary);
}

/** How the words of one language are read; the same object on both sides of search. */
export interface SearchAnalyzer {
  /** The language id, written into the index's meta; undefined: folding only. */
  language: SearchLanguageId | undefined;
  /** True for tokens too common or too short to search on their own. */
  isStopword(token: string): boolean;
  /** The stem of a folded token; tokens with digits or of three letters or fewer stay as they are. */
  stem(token: string): string;
}

/** Folded plural endings the Portuguese stemmer would not reduce like their singular. */
function normalizePortuguesePlural(token: string): string {
  if (token.length < 5) return token;
  if (/[oa]es$/.test(token)) return `${token.slice(0, -3)}ao`; // transacoes -> transacao
  const diphthong = /([aeou])is$/.exec(token);
  if (diphthong) return `${token.slice(0, -3)}${diphthong[1]}l`; // parciais -> parcial, papeis -> papel
  // English plurals of technical words (tokens, webhooks, headers), which Portuguese stemming leaves alone.
  if (/[^aeiousy]s$/.test(token)) return token.slice(0, -1);
  return token;
}

const NORMALIZE: Partial<Record<SearchLanguageId, (token: string) => string>> = { pt: normalizePortuguesePlural };

/** The analyzer of a language with its stemmer; memoizes stems, since a site repeats its words. */
export function createAnalyzer(language: SearchLanguageId | undefined, stemmer: Stemmer | undefined): SearchAnalyzer {
  const stopwords = new Set((language && STOPWORDS[language]?.split(' ')) || []);
  const normalize = (language && NORMALIZE[language]) || ((token: string) => token);
  const memo = new Map<string, string>();
  return {
    language,
    isStopword: (token) => token.length < 2 || stopwords.has(token),
    stem(token) {
      if (!stemmer || token.length < 4 || !/^[a-z]+$/.test(token)) return token;
      let result = memo.get(token);
      if (result === undefined) memo.set(token, (result = stemmer(normalize(token))));
      return result;
    },
  };
}

/** The analyzer of a language, its stemmer loaded (one chunk in the browser). */
export async function loadAnalyzer(language: SearchLanguageId | undefined): Promise<SearchAnalyzer> {
  return createAnalyzer(language, language ? (await LOADERS[language]()).stemmer : undefined);
}
