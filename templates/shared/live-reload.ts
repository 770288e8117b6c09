/**
 * The protocol between `docsgen serve --watch` (cli/watch/live.ts) and the live-reload
 * script it injects into the pages it serves (templates/client/live-reload.ts): the paths
 * it answers under one prefix, and the Server-Sent Events it pushes, each event named by
 * its `type` and carrying the message as JSON.
 */

export const LIVE_PREFIX = '/__docsgen/';
export const EVENTS_PATH = `${LIVE_PREFIX}events`;
export const ERRORS_PATH = `${LIVE_PREFIX}errors`;
export const CLIENT_PATH = `${LIVE_PREFIX}live-reload.js`;

/** One problem as the overlay shows it: the terminal's text, split into its parts. */
export interface OverlayError {
  message: string;
  /** "file:line:col", or the file, or '' when the problem has no place. */
  location: string;
  file?: string;
  line?: number;
  column?: number;
  /** The offending source lines with line numbers and a caret. */
  excerpt?: string;
  hint?: string;
}

export interface OverlayPayload {
  /** Empty when the last build succeeded. */
  errors: OverlayError[];
  /** The summary line of a multi-error report ("3 files could not be compiled:"). */
  summary?: string;
  /** No build has succeeded yet: the page under the overlay is a placeholder, not a last good build. */
  noGoodBuild?: boolean;
}

/**
 * Before any build succeeded, watch mode serves a placeholder page (cli/watch.ts), marked
 * by this attribute on <html> with its state. A page opened while the first build runs
 * says "building"; when that build fails, the live-reload script changes it in place to
 * what the server now serves, since reloading would only fetch the same placeholder again.
 */
export const PLACEHOLDER_ATTRIBUTE = 'data-docsgen-placeholder';

export type PlaceholderState = 'building' | 'failed';

/** The placeholder's title (also its one heading) and its one paragraph, in each state. */
export const PLACEHOLDER_TEXT: Record<PlaceholderState, { title: string; text: string }> = {
  building: { title: 'Building…', text: 'docsgen is building the site. This page reloads by itself when the build is done.' },
  failed: {
    title: 'Build failed',
    text: 'The build failed, and no earlier build is there to show. Fix the file named in the error (in the terminal, and over this page) and save: this page reloads by itself when a build succeeds.',
  },
};

/** The first event of every stream. */
export interface LiveHello {
  /** Changes with every start of the server, so a page that reconnects to a restarted watch reloads. */
  id: string;
  /** The overlay state the page starts with. */
  errors: OverlayPayload;
  /**
   * Whether a build has replaced the placeholder: a placeholder page whose stream connects
   * after the reload that followed that build reloads when it hears this.
   */
  built: boolean;
}

export const HELLO_EVENT = 'hello';

/** What the server pushes; the client acts on each kind. */
export type LiveMessage =
  /** `pages`: the new HTML of some of the routes, as served, so an open page can update without asking for it. */
  | { type: 'reload'; routes: string[]; pages?: Record<string, string> }
  | { type: 'reload-all' }
  | { type: 'css'; swap: Record<string, string> }
  | { type: 'build-error'; payload: OverlayPayload }
  | { type: 'ok' };

/** The message of one event type. */
export type LiveMessageOf<T extends LiveMessage['type']> = Extract<LiveMessage, { type: T }>;
