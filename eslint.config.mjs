// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Modules that must stay free of `vscode` so they run (and are unit-tested) in plain Node. */
const PURE = [
  'src/elicitation/**/*.ts',
  'src/sampling/**/*.ts',
  'src/servers/capabilities/**/*.ts',
  'src/config/parse/**/*.ts',
  'src/shared/**/*.ts',
  'webview/**/*.ts',
  'src/servers/connection.ts',
  'src/servers/connectionDeps.ts',
  'src/servers/session.ts',
  'src/servers/sessionDeps.ts',
  'src/servers/sessionRequests.ts',
  // The call path and sign-in: the conformance client (test/conformance/client.ts) runs them in plain Node.
  'src/servers/toolRunner.ts',
  'src/servers/mrtr/**/*.ts',
  'src/servers/auth/**/*.ts',
  'src/servers/transports.ts',
  'src/servers/httpTransports.ts',
  'src/util/sdkConsole.ts',
  // The wording modules take `vscode.l10n` as a parameter (src/shared/localize.ts).
  'src/ui/wording/**/*.ts',
];

export default tseslint.config(
  // The tooling (scripts/, bench/), the demo and the fixture servers and extensions are linted like the code.
  { ignores: ['node_modules/**', 'dist/**', 'out/**', 'media/**', '.vscode-test/**', '**/*.js', '!test/fixtures/*/extension.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  // Plain JS is type-checked too (checkJs in scripts/, bench/, demo/ and test/fixtures/), so drop the core rules TypeScript covers (no-undef…).
  { ...tseslint.configs.eslintRecommended, files: ['**/*.mjs', '**/*.js'] },
  {
    // The fixture extensions are CommonJS, as VS Code loads an extension's `main` with require().
    files: ['test/fixtures/*/extension.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.mjs', 'prettier.config.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // node:test's describe/it return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
      curly: ['error', 'multi-line'],
    },
  },
  {
    // Notifications, status bar messages and input boxes render `[label](command:…)` as a link that
    // runs on click: text reaches them only through src/util/safeText.ts, which takes neutralised text.
    files: ['src/**/*.ts'],
    ignores: ['src/util/safeText.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[object.property.name='window'][property.name=/^(showInformationMessage|showWarningMessage|showErrorMessage|setStatusBarMessage|showInputBox|withProgress)$/]",
          message:
            'Use the helper of the same name in src/util/safeText.ts: it takes DisplayText, so server and config text cannot become a link.',
        },
        {
          selector: "NewExpression[callee.property.name='MarkdownString']",
          message: 'Use markdownTooltip() from src/util/safeText.ts: a MarkdownString renders links and bare URLs in foreign text.',
        },
      ],
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
