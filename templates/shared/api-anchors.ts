/**
 * Where an operation lives on an API reference page. The page, its search entries and its
 * Markdown twin all link to it, and the interactive console opens at the same address.
 */

/** Elements' hash router addresses an operation as #/operations/{operationId}; the reference uses the same ids so links written for either keep working. */
export function operationAnchor(op: { kind: 'operation' | 'webhook'; operationId: string }): string {
  return op.kind === 'webhook' ? `/webhooks/${op.operationId}` : `/operations/${op.operationId}`;
}
