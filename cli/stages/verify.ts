/**
 * Stage: crawl the written site with linkinator through docsgen's own server on a
 * loopback port, so links are checked exactly as a production host resolves them
 * (both page aliases, 404s, assets). External links are only fetched on request.
 */
import { LinkChecker } from 'linkinator';
import type { SiteConfig } from '../config.ts';
import { DocsgenError, DocsgenErrors } from '../errors.ts';
import { startServer } from '../serve.ts';

export interface VerifyOptions {
  dir: string;
  checkExternal: boolean;
}

export interface VerifyResult {
  checked: number;
  skipped: number;
}

export async function verify(options: VerifyOptions, config: SiteConfig): Promise<VerifyResult> {
  const server = await startServer({ dir: options.dir, port: 0, host: '127.0.0.1' });
  try {
    const checker = new LinkChecker();
    const local = server.url;
    const ignored = config.links.ignore;
    const result = await checker.check({
      path: `${local}/`,
      recurse: true,
      concurrency: 16,
      timeout: 20_000,
      checkFragments: true,
      linksToSkip: async (link: string) => {
        if (ignored.some((prefix) => link.startsWith(prefix))) return true;
        if (link.startsWith(local)) return false;
        return !options.checkExternal;
      },
    });
    const broken = result.links.filter((l) => l.state === 'BROKEN');
    if (broken.length > 0) {
      // Each broken URL once, with the pages that link to it.
      const byUrl = new Map<string, { status: number | undefined; parents: Set<string> }>();
      for (const link of broken) {
        const entry = byUrl.get(link.url) ?? { status: link.status, parents: new Set<string>() };
        if (link.parent) entry.parents.add(link.parent.replace(local, '') || '/');
        byUrl.set(link.url, entry);
      }
      const errors = [...byUrl].map(([url, { status, parents }]) => {
        const pages = [...parents].sort();
        const shown = pages.slice(0, 3).join(', ') + (pages.length > 3 ? ` and ${pages.length - 3} more` : '');
        return new DocsgenError(`Broken link ${url.replace(local, '')} (status ${status || 'no response'}), linked from ${shown || 'the start page'}.`, {
          hint: url.startsWith(local)
            ? 'The page or file does not exist in the output; fix the link or add the file to static/.'
            : 'The external site did not answer with success; fix the URL or add its prefix to links.ignore in site.config.ts with a reason.',
        });
      });
      throw new DocsgenErrors(`The crawl of the built site found ${byUrl.size} broken link${byUrl.size === 1 ? '' : 's'}:`, errors);
    }
    return { checked: result.links.filter((l) => l.state === 'OK').length, skipped: result.links.filter((l) => l.state === 'SKIPPED').length };
  } finally {
    await server.close();
  }
}
