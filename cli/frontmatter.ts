/**
 * Front matter: split it from the MDX body and validate it with a schema, reporting
 * each bad field with its line so the author can jump to it.
 */
import { LineCounter, parseDocument, isMap, isScalar, type Pair } from 'yaml';
import { z } from 'zod';
import { DocsgenError, codeExcerpt } from './errors.ts';
import { nearest } from './suggest.ts';
import { distinctYamlErrors, yamlErrorMessage, yamlToJs } from './yaml-limits.ts';

/** Front matter is a flat list of fields with a few short lists: this is far more than any needs. */
const FRONT_MATTER_MAX_DEPTH = 16;

/**
 * Heading levels of the table of contents, as Docusaurus counts them: 2 is h2 (`##`), 6 is
 * h6. h1 is the page's title, which the table of contents never lists. The defaults are
 * the spec's "table of contents levels: 2 to 3".
 */
export const TOC_LEVELS = { lowest: 2, highest: 6, defaultMin: 2, defaultMax: 3 } as const;

/** The levels a page's table of contents lists, from its front matter (already checked). */
export function tocLevels(frontMatter: TocLevelFields): { min: number; max: number } {
  return { min: frontMatter.toc_min_heading_level ?? TOC_LEVELS.defaultMin, max: frontMatter.toc_max_heading_level ?? TOC_LEVELS.defaultMax };
}

export interface TocLevelFields {
  toc_min_heading_level?: number;
  toc_max_heading_level?: number;
}

/** How a value that is not a level reads in a message: what the author wrote, as YAML gave it. */
function shownValue(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (typeof value === 'string') return `the text ${JSON.stringify(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? 'a list' : 'a map';
}

function tocLevel() {
  const error = (issue: { input?: unknown }) => `a table of contents level is a whole number from ${TOC_LEVELS.lowest} to ${TOC_LEVELS.highest}, not ${shownValue(issue.input)}`;
  return z.number({ error }).int({ error }).min(TOC_LEVELS.lowest, { error }).max(TOC_LEVELS.highest, { error });
}

const tocLevelFields = {
  /** The first heading level the table of contents lists: 2 (h2, the default) to 6. */
  toc_min_heading_level: tocLevel().optional(),
  /** The last heading level the table of contents lists: 2 to 6 (h6); default 3. */
  toc_max_heading_level: tocLevel().optional(),
};

/**
 * toc_min_heading_level may not be above toc_max_heading_level, given or default: the
 * table of contents would list nothing, silently (Docusaurus shows an empty one). A level
 * that is not one is reported by its own field. Checked by parseUncached, not by the
 * schemas: zod runs an object's refinements only when nothing else in it failed, and one
 * build reports every problem of the front matter.
 */
function tocRangeProblem(data: unknown): { field: keyof TocLevelFields; message: string; hint: string } | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { toc_min_heading_level: min, toc_max_heading_level: max } = data as Record<string, unknown>;
  const isLevel = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= TOC_LEVELS.lowest && n <= TOC_LEVELS.highest;
  if (!isLevel(min)) return undefined;
  if (max === undefined) {
    if (min <= TOC_LEVELS.defaultMax) return undefined;
    return {
      field: 'toc_min_heading_level',
      message: `${min} is above the default toc_max_heading_level, ${TOC_LEVELS.defaultMax}, so the table of contents would list no heading`,
      hint: `Add \`toc_max_heading_level: ${min}\` (or up to ${TOC_LEVELS.highest}) below it to list the h${min} headings, or lower toc_min_heading_level to ${TOC_LEVELS.defaultMin} or ${TOC_LEVELS.defaultMax}.`,
    };
  }
  if (!isLevel(max) || min <= max) return undefined;
  return {
    field: 'toc_max_heading_level',
    message: `${max} is below toc_min_heading_level, ${min}, so the table of contents would list no heading`,
    hint: `The table of contents lists the levels from toc_min_heading_level to toc_max_heading_level: set toc_max_heading_level to ${min} or more, or toc_min_heading_level to ${max} or less.`,
  };
}

/** Hints for a wrong value of fields whose expected type alone does not say what to write. */
const VALUE_HINTS: Partial<Record<string, string>> = {
  toc_min_heading_level: `Write a number without quotes from ${TOC_LEVELS.lowest} to ${TOC_LEVELS.highest}: the table of contents starts at that heading level (3 is h3, \`###\` in Markdown). Remove the field to start at h${TOC_LEVELS.defaultMin}.`,
  toc_max_heading_level: `Write a number without quotes from ${TOC_LEVELS.lowest} to ${TOC_LEVELS.highest}: the table of contents goes down to that heading level (4 is h4, \`####\` in Markdown). Remove the field to stop at h${TOC_LEVELS.defaultMax}.`,
};

function previewImage() {
  return z.string().regex(/^(?:\/(?!\/)|https:\/\/)\S+$/, 'an image is a path of the site starting with "/" (a file of the static folder) or an https: URL');
}

export const docFrontMatterSchema = z.strictObject({
  /** Page title: the H1 and the first part of <title>. */
  title: z.string().min(1),
  /** Meta description, also used in search results and link previews. */
  description: z.string().min(1),
  sidebar_label: z.string().min(1).optional(),
  sidebar_position: z.number().optional(),
  tags: z.array(z.string().min(1)).optional(),
  keywords: z.array(z.string()).optional(),
  hide_table_of_contents: z.boolean().optional(),
  ...tocLevelFields,
  /**
   * The title is not shown as the heading at the top of the doc. It stays the page's h1,
   * visually hidden, for screen readers and search engines; a doc whose first heading is
   * its own `# heading` has that one as its h1 (Docusaurus's rule).
   */
  hide_title: z.boolean().optional(),
  /** Replaces the file name in the doc id (what sidebars and pagination_prev/next name) and in the default route. */
  id: z.string().regex(/^[^/\\\s]+$/, 'a doc id is one path segment: no slashes or spaces (move the file to change its folder)').optional(),
  /** The route: `/x` from the docs route, `x` from the doc's folder. */
  slug: z
    .string()
    .regex(/^[^\s?#%\\]*$/, 'a slug is a URL path: no spaces, "?", "#", "%" or backslashes')
    .refine((s) => !s.split('/').some((part) => part === '..' || part === '.'), 'a slug may not contain "." or ".." segments')
    .optional(),
  /** Link preview image: a root-relative path of the site (`/img/x.png`) or an https: URL. */
  image: previewImage().optional(),
  /** What the previous/next links of other docs call this doc; default its sidebar label. */
  pagination_label: z.string().min(1).optional(),
  /** Doc id the "Previous" link leads to instead of the one before in the sidebar; null hides it. */
  pagination_prev: z.string().min(1).nullable().optional(),
  /** Doc id the "Next" link leads to instead of the one after in the sidebar; null hides it. */
  pagination_next: z.string().min(1).nullable().optional(),
  /** Class on the doc's sidebar item, for styling it. */
  sidebar_class_name: z.string().regex(/^-?[_a-zA-Z][\w-]*(?: -?[_a-zA-Z][\w-]*)*$/, 'class names are letters, digits, "-" and "_", separated by spaces').optional(),
  /** Replaces the doc's "Edit this page" link (config `editUrl` + its path); '' or null shows none. */
  custom_edit_url: z
    .string()
    .regex(/^(?:https?:\/\/\S+)?$/, 'an edit URL is an http(s) URL, or empty (or null) for no edit link')
    .nullable()
    .optional(),
  /** Built by `serve --watch`, left out of `docsgen build`. */
  draft: z.boolean().optional(),
  /** Built and reachable by its URL, but not indexed and listed nowhere: sidebars, sitemap, search, llms.txt. */
  unlisted: z.boolean().optional(),
});
export type DocFrontMatter = z.infer<typeof docFrontMatterSchema>;

export const postFrontMatterSchema = z.strictObject({
  title: z.string().min(1),
  description: z.string().min(1),
  /** Keys of authors.yml. */
  authors: z.array(z.string().min(1)).default([]),
  tags: z.array(z.string().min(1)).default([]),
  /** Overrides the last URL segment taken from the file name. */
  slug: z.string().regex(/^[a-z0-9-]+$/).optional(),
  /** Built by `serve --watch`, left out of `docsgen build`. */
  draft: z.boolean().optional(),
  /** Built and reachable by its URL, but not indexed and listed nowhere: blog lists, feeds, sitemap, search. */
  unlisted: z.boolean().optional(),
  keywords: z.array(z.string()).optional(),
  image: previewImage().optional(),
  ...tocLevelFields,
});
export type PostFrontMatter = z.infer<typeof postFrontMatterSchema>;

export const pageFrontMatterSchema = z.strictObject({
  title: z.string().min(1),
  description: z.string().min(1),
  hide_table_of_contents: z.boolean().optional(),
  /** Accepted as in Docusaurus, where MDX pages have a table of contents; docsgen's pages show none. */
  ...tocLevelFields,
  keywords: z.array(z.string()).optional(),
  image: previewImage().optional(),
  /** Built by `serve --watch`, left out of `docsgen build`. */
  draft: z.boolean().optional(),
  /** Built and reachable by its URL, but not indexed and listed nowhere: sitemap, search, llms.txt. */
  unlisted: z.boolean().optional(),
});
export type PageFrontMatter = z.infer<typeof pageFrontMatterSchema>;

/**
 * Front-matter fields of Docusaurus 3 (docs, blog and pages plugins) that docsgen does not
 * read, with what to do instead: authors bring them along when moving a site, and the
 * nearest allowed name (`hide_title` -> `title`) would be a wrong lead. A field one kind
 * of source accepts (`slug` on docs) is listed here for the kinds that do not.
 */
const DOCUSAURUS_FIELDS: Record<string, string> = {
  hide_title: 'Only docs can hide their title: a post or page always shows its `title` as its heading.',
  displayed_sidebar: "A doc shows the sidebar that lists it: list the doc in that sidebar in site.config.ts (`sidebars`).",
  last_update: 'The "last updated" date of a doc comes from git (else from the file).',
  sidebar_custom_props: 'To style the sidebar item, give the doc a `sidebar_class_name`.',
  sidebar_key: 'Sidebar items are told apart by their doc id.',
  parse_number_prefixes: 'docsgen keeps number prefixes in file names (`01-intro.mdx` is the doc `01-intro`); order docs with `sidebar_position`.',
  custom_edit_url: 'Only docs have an "Edit this page" link.',
  hide_table_of_contents: 'Blog posts have no table of contents to hide.',
  sidebar_label: 'Blog posts are listed by their `title`.',
  title_meta: 'The <title> of a post is made from its `title`.',
  date: 'A post takes its date from its file name (YYYY-MM-DD-slug.mdx).',
  id: 'A post or page takes its URL from its file name; a post may set `slug`.',
  slug: "A page's URL is its path in the pages folder: move or rename the file.",
  wrapperClassName: 'Style the page from its own component, or with a class in its MDX.',
  author: 'List the authors by key in `authors`, and describe each in the blog\'s authors.yml.',
  author_title: 'Give the author a `title` in the blog\'s authors.yml, and list the key in `authors`.',
  authorTitle: 'Give the author a `title` in the blog\'s authors.yml, and list the key in `authors`.',
  author_url: 'Give the author a `url` in the blog\'s authors.yml, and list the key in `authors`.',
  authorURL: 'Give the author a `url` in the blog\'s authors.yml, and list the key in `authors`.',
  author_image_url: 'docsgen shows no author images: list the author by key in `authors` (authors.yml).',
  authorImageURL: 'docsgen shows no author images: list the author by key in `authors` (authors.yml).',
};

export interface SplitSource {
  /** Raw YAML between the fences, '' when there is none. */
  yaml: string;
  /** 1-based line of the first YAML line. */
  yamlStartLine: number;
  hasFrontMatter: boolean;
}

const FENCE = /^---\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

export function splitFrontMatter(source: string): SplitSource {
  const match = FENCE.exec(source);
  if (!match) return { yaml: '', yamlStartLine: 2, hasFrontMatter: false };
  return { yaml: match[1] ?? '', yamlStartLine: 2, hasFrontMatter: true };
}

/**
 * Parses and validates the front matter of `source` against `schema`.
 * Throws one DocsgenError per problem (the caller collects them across files).
 */
export function parseFrontMatter<S extends z.ZodType>(
  source: string,
  schema: S,
  file: string,
  cache: FrontMatterCache = createFrontMatterCache(),
): { data: z.infer<S>; errors: DocsgenError[] } {
  const parsed = cache.parsed;
  let bySchema = parsed.get(schema);
  if (!bySchema) parsed.set(schema, (bySchema = new Map()));
  const known = bySchema.get(file);
  if (known?.source === source) return known.result as { data: z.infer<S>; errors: DocsgenError[] };
  const result = parseUncached(source, schema, file);
  bySchema.set(file, { source, result });
  return result;
}

/**
 * Front matter parsed in the builds of one build session. A rebuild in watch mode reads
 * every source again; parsing YAML and validating it is most of that, and only the saved
 * file changed. One entry per schema and file.
 */
export interface FrontMatterCache {
  parsed: WeakMap<z.ZodType, Map<string, { source: string; result: { data: unknown; errors: DocsgenError[] } }>>;
}

export function createFrontMatterCache(): FrontMatterCache {
  return { parsed: new WeakMap() };
}

function parseUncached<S extends z.ZodType>(source: string, schema: S, file: string): { data: z.infer<S>; errors: DocsgenError[] } {
  const split = splitFrontMatter(source);
  if (!split.hasFrontMatter) {
    const error = /^---[ \t]*\r?\n/.test(source)
      ? new DocsgenError('Front matter is not closed: the --- on line 1 opens it, and no --- line ends it.', {
          file,
          line: 1,
          excerpt: codeExcerpt(source, 1, 1),
          hint: 'Add a line with only --- after the last front-matter field, before the text of the page.',
        })
      : new DocsgenError('Front matter is missing.', {
          file,
          line: 1,
          hint: 'Start the file with a YAML block between --- lines, with at least `title:` and `description:`.',
        });
    return { data: undefined as z.infer<S>, errors: [error] };
  }
  const counter = new LineCounter();
  const doc = parseDocument(split.yaml, { lineCounter: counter, prettyErrors: false });
  const toFileLine = (offset: number) => {
    const pos = counter.linePos(offset);
    return { line: pos.line + split.yamlStartLine - 1, column: pos.col };
  };
  if (doc.errors.length > 0) {
    return {
      data: undefined as z.infer<S>,
      errors: distinctYamlErrors(doc.errors).map((e) => {
        const { line, column } = toFileLine(e.pos[0]);
        const duplicate = e.code === 'DUPLICATE_KEY' ? duplicateKey(doc.contents, e.pos[0]) : undefined;
        if (duplicate) {
          const first = toFileLine(duplicate.firstOffset);
          return new DocsgenError(`Front matter is not valid YAML: the field '${duplicate.key}' is given twice, on line ${first.line} and here.`, {
            file,
            line,
            column,
            excerpt: codeExcerpt(source, line, column),
            hint: `Keep one \`${duplicate.key}:\` line: remove the other, or rename it if it was meant to be another field.`,
          });
        }
        return new DocsgenError(`Front matter is not valid YAML: ${yamlErrorMessage(e.message)}`, {
          file,
          line,
          column,
          excerpt: codeExcerpt(source, line, column),
          hint: 'Quote values that contain ":" or "#", and indent lists with two spaces.',
        });
      }),
    };
  }
  const converted = yamlToJs(doc, FRONT_MATTER_MAX_DEPTH);
  if (!converted.ok) {
    const { line, column } = toFileLine(converted.problem.offset);
    return {
      data: undefined as z.infer<S>,
      errors: [
        new DocsgenError(`Front matter ${converted.problem.message}`, { file, line, column, excerpt: codeExcerpt(source, line, column), hint: converted.problem.hint }),
      ],
    };
  }
  const value: unknown = converted.value ?? {};
  const result = schema.safeParse(value);
  const known = schemaKeys(schema);
  const range = known.includes('toc_min_heading_level') ? tocRangeProblem(value) : undefined;
  if (result.success && !range) return { data: result.data as z.infer<S>, errors: [] };
  // A range problem is only found between two valid levels, which have no issue of their own.
  const issues: readonly z.core.$ZodIssue[] = [
    ...(result.success ? [] : result.error.issues),
    ...(range ? [{ code: 'custom' as const, path: [range.field], message: range.message, params: { hint: range.hint }, input: value }] : []),
  ];

  const keyLine = (key: PropertyKey | undefined): { line?: number; column?: number } => {
    if (!isMap(doc.contents) || typeof key !== 'string') return {};
    const pair = doc.contents.items.find((p: Pair) => isScalar(p.key) && p.key.value === key);
    const range = pair && isScalar(pair.key) ? pair.key.range : undefined;
    return range ? toFileLine(range[0]) : {};
  };
  const errors = issues.flatMap((issue): DocsgenError[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => {
        const where = keyLine(key);
        const excerpt = where.line ? codeExcerpt(source, where.line, where.column) : undefined;
        const instead = Object.hasOwn(DOCUSAURUS_FIELDS, key) ? DOCUSAURUS_FIELDS[key] : undefined;
        if (instead !== undefined) {
          return new DocsgenError(`Front-matter field '${key}' is a Docusaurus field docsgen does not support ${whereIn(schema)}.`, {
            file,
            ...where,
            excerpt,
            hint: `Remove it. ${instead}`,
          });
        }
        const suggestion = nearest(key, known);
        return new DocsgenError(`Unknown front-matter field '${key}'.`, {
          file,
          ...where,
          excerpt,
          hint: suggestion ? `Did you mean '${suggestion}'? Allowed fields: ${known.join(', ')}.` : `Remove it, or use one of the allowed fields: ${known.join(', ')}.`,
        });
      });
    }
    const key = issue.path[0];
    const where = keyLine(key);
    // zod 4 does not always fill issue.input, so "missing" is read from the parsed YAML itself.
    const missing = issue.code === 'invalid_type' && valueAt(value, issue.path) === undefined;
    const field = issue.path.map(String).join('.');
    const given = issue.code === 'custom' && typeof issue.params?.hint === 'string' ? issue.params.hint : VALUE_HINTS[field];
    return [
      new DocsgenError(
        missing ? `Front-matter field '${field}' is missing.` : `Front-matter field '${field}': ${issue.message}.`,
        {
          file,
          ...(where.line ? where : { line: 1 }),
          excerpt: where.line ? codeExcerpt(source, where.line, where.column) : undefined,
          hint: missing
            ? `Add \`${field}: ...\` between the --- lines at the top of the file.`
            : (given ?? `Give '${field}' a value of the expected type (${describeExpected(issue)}).`),
        },
      ),
    ];
  });
  return { data: undefined as z.infer<S>, errors };
}

/** The key repeated at `offset` and where it first appears, for YAML's bare "Map keys must be unique". */
function duplicateKey(contents: unknown, offset: number): { key: string; firstOffset: number } | undefined {
  if (!isMap(contents)) return undefined;
  const keyOf = (pair: Pair) => (isScalar(pair.key) ? { value: pair.key.value, start: pair.key.range?.[0] } : undefined);
  const repeated = contents.items.map(keyOf).find((k) => k?.start === offset);
  if (repeated === undefined) return undefined;
  const first = contents.items.map(keyOf).find((k) => k?.value === repeated.value);
  return first?.start === undefined ? undefined : { key: String(repeated.value), firstOffset: first.start };
}

/** Which kind of source a schema is for, as "in docs": a field may be supported in one kind and not in another. */
function whereIn(schema: z.ZodType): string {
  if (schema === docFrontMatterSchema) return 'in docs';
  if (schema === postFrontMatterSchema) return 'in blog posts';
  if (schema === pageFrontMatterSchema) return 'in pages';
  return 'here';
}

function describeExpected(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') return issue.expected;
  return issue.message;
}

function schemaKeys(schema: z.ZodType): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/** The value at a path of parsed data, or undefined when any step is absent. */
export function valueAt(data: unknown, segments: readonly PropertyKey[]): unknown {
  let current: unknown = data;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

/**
 * Where the value of a top-level front-matter field starts in `source`, with the line
 * shown, for a problem found after parsing (a doc id that names no doc). Parsed again
 * here: only a file with such a problem pays for it, and parsed data keeps no places.
 */
export function frontMatterFieldPlace(source: string, key: string): { line?: number; column?: number; excerpt?: string } {
  const split = splitFrontMatter(source);
  if (!split.hasFrontMatter) return {};
  const counter = new LineCounter();
  const doc = parseDocument(split.yaml, { lineCounter: counter, prettyErrors: false });
  if (!isMap(doc.contents)) return {};
  const pair = doc.contents.items.find((p: Pair) => isScalar(p.key) && p.key.value === key);
  const node = pair && (isScalar(pair.value) ? pair.value : isScalar(pair.key) ? pair.key : undefined);
  if (!node?.range) return {};
  const pos = counter.linePos(node.range[0]);
  const line = pos.line + split.yamlStartLine - 1;
  return { line, column: pos.col, excerpt: codeExcerpt(source, line, pos.col) };
}
