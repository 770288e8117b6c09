/**
 * The OpenAPI validator (Redocly's 'spec' ruleset), loaded only by a build whose site has
 * API documents: @redocly/openapi-core took a third of a second to import, a tenth of the
 * build of a small site without any.
 */
import { BaseResolver, createConfig, getLineColLocation, lintDocument, makeDocumentFromString, ResolveError, type Document, type NormalizedProblem, type Source, type YamlParseError } from '@redocly/openapi-core';

export type { NormalizedProblem } from '@redocly/openapi-core';

/**
 * A resolver for the validator that refuses every reference to another file or URL
 * without touching it; the validator then reports it as unresolved (see refs.ts).
 */
export class NoExternalReads extends BaseResolver {
  override loadExternalRef(absoluteRef: string): Promise<Source> {
    return Promise.reject(refused(absoluteRef));
  }

  override resolveDocument<T = unknown>(_base: string | null, ref: string): Promise<Document<T> | ResolveError | YamlParseError> {
    return Promise.reject(refused(ref));
  }
}

function refused(ref: string): ResolveError {
  return new ResolveError(new Error(`docsgen does not read or fetch '${ref}': API documents must stand alone.`));
}

export interface ApiValidator {
  /** The errors the validator finds in the document (warnings and ignored problems left out). */
  validate(text: string, absoluteFile: string): Promise<NormalizedProblem[]>;
  /** Where a problem is, by the validator's own reckoning (for problems outside the document's own YAML). */
  lineColumn(location: NormalizedProblem['location'][number]): { line: number; column: number } | undefined;
}

/**
 * Structural validation only (the 'spec' ruleset: schema of every object, resolvable
 * $refs, unique operationIds, declared path parameters). Style rules belong to
 * `redocly lint` with redocly.yaml, and must not fail a build. One configuration for the
 * documents of one load: it belongs to the caller, not to the module.
 */
export function createApiValidator(): ApiValidator {
  const config = createConfig({ extends: ['spec'] });
  return {
    async validate(text, absoluteFile) {
      const document = makeDocumentFromString(text, absoluteFile);
      const problems = await lintDocument({ document, config: await config, externalRefResolver: new NoExternalReads() });
      return problems.filter((p) => p.severity === 'error' && !p.ignored);
    },
    lineColumn(location) {
      try {
        const lc = getLineColLocation(location);
        return { line: lc.start.line, column: lc.start.col };
      } catch {
        return undefined;
      }
    },
  };
}
