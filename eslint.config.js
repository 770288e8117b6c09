// The three boundaries of DESIGN.md, held by the linter rather than by memory:
//   cli/ runs in Node and never imports browser code (templates/client/);
//   layouts and components are rendered in Node by React: they never import client code, the
//     build or Node, and never name a browser global, not even inside an effect or a handler
//     (renderToString runs no effect and attaches no handler, so such code would never run:
//     browser behaviour is asked for with a data-island attribute and done in templates/client/);
//   templates/client/ runs in the browser and never imports the build or a Node module;
//   templates/shared/ is pure: neither Node, nor the DOM, nor other template or build code.
// The tsconfigs hold the same lines for types (tsconfig.cli.json has no DOM, tsconfig.client.json
// no Node, tsconfig.views.json and tsconfig.shared.json neither). Only these rules run, and
// no-explicit-any (an `any` needs an eslint-disable comment that says why), with zero
// warnings allowed (`npm run lint`, part of `npm test`); test/lint/boundaries.test.ts proves each fires.
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const DOM_GLOBALS = [
  'window',
  'self',
  'document',
  'localStorage',
  'sessionStorage',
  'navigator',
  'location',
  'history',
  'matchMedia',
  'getComputedStyle',
  'requestAnimationFrame',
  'customElements',
].map((name) => ({
  name,
  message: 'Code outside templates/client/ never runs in a browser: ask for browser behaviour with a data-island attribute and do it in templates/client/.',
}));

const NODE_GLOBALS = ['process', 'Buffer', 'require', 'module', '__dirname', '__filename', 'global', 'setImmediate'].map((name) => ({
  name,
  message: 'Browser and shared code cannot use Node globals.',
}));

const NODE_MESSAGE = 'Browser and shared code cannot use Node modules.';
/**
 * Node's built-in modules by their bare names, matched exactly (a pattern such as `fs` would also
 * match a package's `x/fs`). `buffer`, `process` and `url` are left out: in browser code those
 * names are the npm shims the API reference's dependencies need (see NODE_SHIMS in cli/stages/bundle.ts).
 */
const BROWSER_SHIMS = new Set(['buffer', 'process', 'url']);
const NODE_PATHS = builtinModules.filter((name) => !name.startsWith('_') && !BROWSER_SHIMS.has(name)).map((name) => ({ name, message: NODE_MESSAGE }));
const NODE_PATTERN = { group: ['node:*'], message: NODE_MESSAGE };

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.test-dist/**', '.dist-*/**', 'test/fixtures/sites/**/dist/**'] },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['cli/**/*.ts', 'templates/**/*.ts', 'templates/**/*.tsx'],
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  {
    files: ['cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/templates/client/**'],
              message: 'cli/ runs in Node: import what both sides need from templates/shared/, never browser code.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', ...DOM_GLOBALS],
    },
  },
  {
    files: ['templates/layouts/**/*.tsx', 'templates/layouts/**/*.ts', 'templates/components/**/*.tsx', 'templates/components/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: NODE_PATHS,
          patterns: [
            { group: ['**/client/**'], message: 'Layouts and components are rendered in Node: they may not import browser code (templates/client/).' },
            { group: ['**/cli/**'], message: 'Layouts and components receive their data as props; they do not import the build.' },
            NODE_PATTERN,
          ],
        },
      ],
      'no-restricted-globals': ['error', ...DOM_GLOBALS, ...NODE_GLOBALS],
    },
  },
  {
    files: ['templates/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: NODE_PATHS,
          patterns: [
            NODE_PATTERN,
            { group: ['../*', '!./*'], message: 'templates/shared/ imports only itself, so both sides can import it without pulling anything along.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', ...DOM_GLOBALS, ...NODE_GLOBALS],
    },
  },
  {
    files: ['templates/client/**/*.ts', 'templates/client/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: NODE_PATHS,
          patterns: [NODE_PATTERN, { group: ['**/cli/**'], message: 'Browser code cannot import the build (cli/).' }],
        },
      ],
      'no-restricted-globals': ['error', ...NODE_GLOBALS],
    },
  },
);
