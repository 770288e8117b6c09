/**
 * The `postman` field of site.config.ts: the texts the generated Postman collections
 * show their users, in the language of the API documents. Folder and request names
 * come from the documents themselves (tags and operation summaries); these are the
 * words docsgen adds around them. English by default.
 */
import { z } from 'zod';

export const postmanTextsSchema = z
  .strictObject({
    /**
     * Paragraph of the collection's description on how to authenticate, under a heading
     * named after the token request's folder. "{tokenRequest}" is replaced by the token request's name.
     */
    authentication: z
      .string()
      .min(1)
      .default(
        'Choose the imported environment and fill in `clientId` and `clientSecret`. Run **{tokenRequest}** ' +
          '(or any request: the collection’s script asks for a token when `accessToken` is empty or about to expire). ' +
          'The token is kept in `accessToken` and sent as `Authorization: Bearer`.',
      ),
    /** Name of the test the token request runs on its answer. */
    tokenIssuedTest: z.string().min(1).default('Token issued (200)'),
    /** Console message when the environment lacks credentials. "{tokenRequest}" as above. */
    missingCredentials: z.string().min(1).default('Fill in clientId and clientSecret in the environment and run "{tokenRequest}".'),
    /** Console message before the error of a failed token request. */
    tokenFailed: z.string().min(1).default('Could not get a token:'),
    /**
     * Folder and name of the token request a collection adds when no API document of the
     * site has the token endpoint as an operation (otherwise its tag and summary are used).
     */
    tokenFolder: z.string().min(1).default('Authentication'),
    tokenRequest: z.string().min(1).default('Get token'),
    /** Description of that request. "{scope}" is replaced by the scopes it asks for. */
    tokenRequestDescription: z
      .string()
      .min(1)
      .default('Exchanges the environment’s `clientId` and `clientSecret` for an OAuth 2.0 access token (*client credentials*) with the scopes `{scope}`, and keeps it in `accessToken`.'),
  })
  .prefault({});

export type PostmanTexts = z.output<typeof postmanTextsSchema>;

/** The English texts, for callers without a site config (tests, tools). */
export const DEFAULT_POSTMAN_TEXTS: PostmanTexts = postmanTextsSchema.parse(undefined);
