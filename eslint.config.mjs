// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Modules that must stay free of `vscode` so they run (and are unit-tested) in plain Node. */
const PURE = ['src/elicitation/**/*.ts', 'src/config/parse/**/*.ts', 'src/shared/**/*.ts', 'webview/**/*.ts'];

export default tseslint.config(
  // The tooling (scripts/, bench/) is linted like the code; the demo and fixture servers are not.
  { ignores: ['node_modules/**', 'dist/**', 'out/**', 'media/**', '.vscode-test/**', 'demo/**', 'test/fixtures/**', 'bench/fixtures/**/*.mjs', '**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  // Plain ESM is type-checked too (checkJs in scripts/ and bench/), so drop the core rules TypeScript covers (no-undef…).
  { ...tseslint.configs.eslintRecommended, files: ['**/*.mjs'] },
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // node:test's describe/it return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
      curly: ['error', 'multi-line'],
    },
  },
  {
    files: PURE,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'Pure modules must not import vscode: keep them testable in plain Node.' }] },
      ],
    },
  },
);
