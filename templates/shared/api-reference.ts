/**
 * The API reference page's contract: where an operation lives on the page (its own links,
 * its search entries and its Markdown twin point there, and the interactive console opens
 * at the same address), the island the console is, and the hooks in its server markup that
 * the console island reads.
 */
import { DATA } from './index.ts';

/** The island of the interactive console (templates/client/islands/api-reference.tsx). */
export const API_ISLAND = 'api-reference';

/**
 * The element every API reference page renders Stoplight Elements into; Elements'
 * stylesheets (bundled, and its theme's, made in the browser) apply only inside it.
 */
export const API_REFERENCE_SCOPE = `[${DATA.island}="${API_ISLAND}"]`;

/** Elements' hash router addresses an operation as #/operations/{operationId}; the reference uses the same ids so links written for either keep working. */
export function operationAnchor(op: { kind: 'operation' | 'webhook'; operationId: string }): string {
  return op.kind === 'webhook' ? `/webhooks/${op.operationId}` : `/operations/${op.operationId}`;
}

/** data-* attributes of the reference's markup that the console island looks for. */
export const API_DATA = {
  /** On an operation's "Try it" link: its operationId. */
  tryOperation: 'data-api-try',
  /** On the box of an operation's request samples, which the console shows too. */
  samples: 'data-api-samples',
  /** On one request sample: its HTTPSnippet target (language) and client (library). */
  sampleTarget: 'data-sample-target',
  sampleClient: 'data-sample-client',
  /** The button that forgets the try-it credentials saved in the browser, hidden until the island shows it. */
  clearCredentials: 'data-clear-credentials',
  /** Where the island says whether the credentials were cleared. */
  credentialsStatus: 'data-credentials-status',
} as const;
