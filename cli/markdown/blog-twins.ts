/**
 * Twins of the blog's own pages, paged as on the site: the post lists (title, date and
 * description of each post, linked), the archive, the tag list and each tag's posts.
 */
import type { PhrasingContent } from 'mdast';
import type { SiteConfig } from '../config.ts';
import type { TagInfo } from '../stages/collect.ts';
import type { CompiledPost } from '../stages/compile.ts';
import { tagHeading } from '../../templates/layouts/Blog.tsx';
import { bulletList, link, twinDocument, type MarkdownTwin } from './write-markdown.ts';

export function blogTwins(posts: readonly CompiledPost[], tags: readonly TagInfo[], config: SiteConfig, siteUrl: string): MarkdownTwin[] {
  if (!config.blog.enabled) return [];
  const base = config.blog.routeBasePath;
  const perPage = config.blog.postsPerPage;
  const twin = (route: string, title: string, description: string, items: PhrasingContent[][]): MarkdownTwin => {
    // The archive's and tag list's description only repeats their title.
    const shown = description === title ? '' : description;
    return { route, title, description: shown, text: twinDocument(title, shown, items.length ? [bulletList(items)] : []) };
  };
  const postItem = ({ post }: CompiledPost): PhrasingContent[] => [
    link(`${siteUrl}${post.route}`, post.frontMatter.title),
    { type: 'text', value: ` (${post.date}): ${post.frontMatter.description}` },
  ];
  const paged = (entries: readonly CompiledPost[], routeOf: (page: number) => string, title: string, description: string): MarkdownTwin[] => {
    const count = Math.max(1, Math.ceil(entries.length / perPage));
    return Array.from({ length: count }, (_, i) => twin(routeOf(i + 1), title, description, entries.slice(i * perPage, (i + 1) * perPage).map(postItem)));
  };

  const twins = paged(posts, (page) => (page === 1 ? base : `${base}/page/${page}`), config.blog.title, config.blog.description);
  twins.push(twin(`${base}/archive`, 'Archive', 'Archive', posts.map(postItem)));
  const tagged = tags.map((tag) => ({ tag, posts: posts.filter((p) => p.post.tags.some((t) => t.key === tag.key)) }));
  twins.push(
    twin(
      `${base}/tags`,
      'Tags',
      'Tags',
      tagged.map(({ tag, posts: list }) => [link(`${siteUrl}${tag.route}`, tag.label), { type: 'text', value: ` (${list.length})` }]),
    ),
  );
  for (const { tag, posts: list } of tagged) {
    const heading = tagHeading(tag.label, list.length);
    twins.push(...paged(list, (page) => (page === 1 ? tag.route : `${tag.route}/page/${page}`), heading, tag.description ?? heading));
  }
  return twins;
}
