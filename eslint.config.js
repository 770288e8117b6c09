// The three boundaries of DESIGN.md, held by the linter rather than by memory:
//   cli/ runs in Node and never imports browser code (templates/client/);
//   layouts and components are rendered in Node by React and never touch the DOM or import client code;
//   templates/shared/ is pure: neither Node, nor the DOM, nor other template code.
// Only these rules run, with zero warnings allowed (`npm run lint`, part of `npm test`).
import tseslint from 'typescript-eslint';

const DOM_GLOBALS = ['window', 'document', 'localStorage', 'sessionStorage', 'navigator', 'location', 'history'].map((name) => ({
  name,
  message: 'Server-rendered code has no DOM: ask for browser behaviour with a data-island attribute and do it in templates/client/.',
}));

const NODE_IMPORTS = {
  group: ['node:*', 'fs', 'path', 'os', 'url', 'child_process', 'crypto'],
  message: 'Browser and shared code cannot use Node modules.',
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.test-dist/**', '.dist-*/**', 'test/fixtures/sites/**/dist/**'] },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
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
    },
  },
  {
    files: ['templates/layouts/**/*.tsx', 'templates/layouts/**/*.ts', 'templates/components/**/*.tsx', 'templates/components/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/client/**'], message: 'Layouts and components are rendered in Node: they may not import browser code (templates/client/).' },
            { group: ['**/cli/**'], message: 'Layouts and components receive their data as props; they do not import the build.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', ...DOM_GLOBALS],
    },
  },
  {
    files: ['templates/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NODE_IMPORTS,
            { group: ['../*', '!./*'], message: 'templates/shared/ imports only itself, so both sides can import it without pulling anything along.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', ...DOM_GLOBALS],
    },
  },
  {
    files: ['templates/client/**/*.ts', 'templates/client/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [NODE_IMPORTS, { group: ['**/cli/**'], message: 'Browser code cannot import the build (cli/).' }],
        },
      ],
    },
  },
);
