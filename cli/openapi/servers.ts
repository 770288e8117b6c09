/**
 * Which server of an OpenAPI document is the sandbox: the one whose description the
 * site's config names (`sandboxServer` of the API reference), else the first listed.
 * One rule for everything that calls the sandbox: try-it, the request samples, the
 * Postman environment and the Content-Security-Policy that lets try-it reach it.
 */
import { asObject, asString } from '../json.ts';

/** The URL of the sandbox among the given server lists (the first list that has servers wins, as in OpenAPI). */
export function pickServer(lists: readonly unknown[][], sandbox: string | undefined): string {
  const servers = (lists.find((list) => list.length > 0) ?? []).map((s) => asObject(s));
  const chosen = (sandbox === undefined ? undefined : servers.find((s) => asString(s.description) === sandbox)) ?? servers[0];
  if (!chosen) return '';
  // Server variables take their defaults, as try-it does.
  let url = asString(chosen.url);
  for (const [name, variable] of Object.entries(asObject(chosen.variables))) url = url.split(`{${name}}`).join(asString(asObject(variable).default));
  return url;
}
