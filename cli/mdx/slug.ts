import GithubSlugger from 'github-slugger';

/**
 * Heading ids are GitHub's slugs of the text with diacritics removed, so Portuguese
 * headings give readable ASCII anchors: "Códigos de erro" -> "codigos-de-erro".
 */
export function createSlugger(): (text: string) => string {
  const slugger = new GithubSlugger();
  return (text) => slugger.slug(text.normalize('NFD').replace(/\p{M}/gu, ''));
}
