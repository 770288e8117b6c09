import type { ReactNode } from 'react';
import { Paginator, type PaginatorLink } from '../components/Paginator.tsx';
import { Toc, TocCollapsible, type TocNode } from '../components/Toc.tsx';
import { DATA } from '../shared/index.ts';

export interface PostSummary {
  title: string;
  route: string;
  date: string;
  readingMinutes: number;
  authors: { name: string; title?: string; url?: string }[];
  tags: { label: string; route: string }[];
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const MONTH_DAY = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' });

export function formatDate(date: string): string {
  return DATE_FORMAT.format(new Date(`${date}T00:00:00Z`));
}

/** Recent posts; on narrow screens the mobile menu shows them as its secondary panel, as Docusaurus does. */
function BlogSidebar({ recent }: { recent: PostSummary[] }) {
  return (
    <aside className="blog-sidebar" {...{ [DATA.menuSecondary]: '' }}>
      <nav aria-label="Blog recent posts navigation">
        <p className="blog-sidebar__title">Recent posts</p>
        <ul className="blog-sidebar__list">
          {recent.map((post) => (
            <li key={post.route}>
              <a href={post.route} className="blog-sidebar__link">
                {post.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </aside>
  );
}

/** The blog's columns: recent posts, the content and, on a post with headings, its table of contents (as Docusaurus's blog). */
function BlogShell({ recent, toc, children }: { recent: PostSummary[]; toc?: readonly TocNode[]; children: ReactNode }) {
  return (
    <div className="blog-layout container">
      <BlogSidebar recent={recent} />
      <main id="main-content" className="blog-main" tabIndex={-1}>
        {children}
      </main>
      {toc?.length ? (
        <div className="doc-toc blog-toc">
          <Toc items={toc} />
        </div>
      ) : null}
    </div>
  );
}

export function PostHeader({ post, headingLevel }: { post: PostSummary; headingLevel: 1 | 2 }) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <header className="post-header">
      <Heading className="post-header__title">{headingLevel === 1 ? post.title : <a href={post.route}>{post.title}</a>}</Heading>
      <p className="post-header__meta">
        <time dateTime={post.date}>{formatDate(post.date)}</time>
        {` · ${post.readingMinutes} min read`}
      </p>
      {post.authors.length ? (
        <ul className="post-authors">
          {post.authors.map((author) => (
            <li key={author.name} className="post-author">
              <span className="post-author__avatar" aria-hidden="true">
                {author.name.slice(0, 1)}
              </span>
              <span>
                <span className="post-author__name">{author.url ? <a href={author.url} target="_blank" rel="noopener noreferrer">{author.name}</a> : author.name}</span>
                {author.title ? <span className="post-author__title">{author.title}</span> : null}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </header>
  );
}

function PostTags({ tags }: { tags: PostSummary['tags'] }) {
  if (!tags.length) return null;
  return (
    <div className="post-tags">
      <span className="post-tags__label">Tags:</span>
      <ul className="tag-list">
        {tags.map((tag) => (
          <li key={tag.route}>
            <a className="tag" href={tag.route}>
              {tag.label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function BlogList({
  title,
  description,
  heading,
  posts,
  recent,
  newer,
  older,
  contentLanguage,
  extraHeader,
}: {
  title: string;
  description?: string;
  heading?: ReactNode;
  posts: { summary: PostSummary; excerpt: ReactNode; truncated: boolean }[];
  recent: PostSummary[];
  newer?: PaginatorLink;
  older?: PaginatorLink;
  contentLanguage?: string;
  extraHeader?: ReactNode;
}) {
  return (
    <BlogShell recent={recent}>
      <header className="blog-list-header">
        {heading ?? <h1 className="visually-hidden">{title}</h1>}
        {description ? <p className="blog-list-header__description">{description}</p> : null}
        {extraHeader}
      </header>
      {posts.map(({ summary, excerpt, truncated }) => (
        <article key={summary.route} className="post post--summary">
          <PostHeader post={summary} headingLevel={2} />
          <div className="markdown" lang={contentLanguage}>
            {excerpt}
          </div>
          <footer className="post-footer">
            <PostTags tags={summary.tags} />
            {truncated ? (
              <a className="post-footer__more" href={summary.route} aria-label={`Read more about ${summary.title}`}>
                <b>Read more</b>
              </a>
            ) : null}
          </footer>
        </article>
      ))}
      <Paginator label="Blog list page navigation" previous={newer} next={older} previousLabel="Newer entries" nextLabel="Older entries" />
    </BlogShell>
  );
}

export function BlogPost({
  post,
  recent,
  toc = [],
  newer,
  older,
  contentLanguage,
  children,
}: {
  post: PostSummary;
  recent: PostSummary[];
  /** The post's headings of the levels its table of contents lists (h2 and h3 unless its front matter says otherwise). */
  toc?: readonly TocNode[];
  newer?: PaginatorLink;
  older?: PaginatorLink;
  contentLanguage?: string;
  children: ReactNode;
}) {
  return (
    <BlogShell recent={recent} toc={toc}>
      <article className="post">
        <PostHeader post={post} headingLevel={1} />
        <TocCollapsible items={toc} />
        <div className="markdown" lang={contentLanguage}>
          {children}
        </div>
        <footer className="post-footer">
          <PostTags tags={post.tags} />
        </footer>
      </article>
      <Paginator label="Blog post page navigation" previous={newer} next={older} previousLabel="Newer post" nextLabel="Older post" />
    </BlogShell>
  );
}

export function BlogArchive({ posts, recent }: { posts: PostSummary[]; recent: PostSummary[] }) {
  const byYear = new Map<string, PostSummary[]>();
  for (const post of posts) {
    const year = post.date.slice(0, 4);
    byYear.set(year, [...(byYear.get(year) ?? []), post]);
  }
  return (
    <BlogShell recent={recent}>
      <header className="blog-list-header">
        <h1>Archive</h1>
        <p>Archive</p>
      </header>
      {[...byYear.entries()].map(([year, yearPosts]) => (
        <section key={year} className="archive-year">
          <h2>{year}</h2>
          <ul>
            {yearPosts.map((post) => (
              <li key={post.route}>
                <a href={post.route}>
                  <time dateTime={post.date}>{MONTH_DAY.format(new Date(`${post.date}T00:00:00Z`))}</time> - {post.title}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </BlogShell>
  );
}

export function BlogTags({ tags, recent }: { tags: { label: string; route: string; count: number }[]; recent: PostSummary[] }) {
  const byLetter = new Map<string, typeof tags>();
  for (const tag of tags) {
    const letter = tag.label.slice(0, 1).toUpperCase();
    byLetter.set(letter, [...(byLetter.get(letter) ?? []), tag]);
  }
  return (
    <BlogShell recent={recent}>
      <h1>Tags</h1>
      {[...byLetter.entries()].map(([letter, letterTags]) => (
        <section key={letter} className="tags-letter">
          <h2>{letter}</h2>
          <ul className="tag-list">
            {letterTags.map((tag) => (
              <li key={tag.route}>
                <a className="tag tag--count" href={tag.route}>
                  {tag.label}
                  <span className="tag__count">{tag.count}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </BlogShell>
  );
}

export function tagHeading(label: string, count: number): string {
  return count === 1 ? `One post tagged with "${label}"` : `${count} posts tagged with "${label}"`;
}
