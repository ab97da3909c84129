import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.toolplane/', '*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
      'no-restricted-imports': 'off',
    },
  },
  {
    // The console runs in the browser.
    files: ['console/**/*.{ts,tsx,mjs}'],
    languageOptions: {
      globals: {
        window: 'readonly', document: 'readonly', location: 'readonly', history: 'readonly', navigator: 'readonly', sessionStorage: 'readonly',
        fetch: 'readonly', performance: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly',
        addEventListener: 'readonly', matchMedia: 'readonly', ResizeObserver: 'readonly', AbortController: 'readonly', URLSearchParams: 'readonly',
      },
    },
  },
  {
    // CommonJS files that Jest requires (its transform).
    files: ['test/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', __filename: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests read loosely typed JSON answers.
    files: ['test/**/*.ts', '**/*.spec.ts', '**/*.e2e-spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Settings are read from the environment in src/config alone (the CLI keeps its own); module
    // boundaries and the SDK's two halves are held by dependency-cruiser (.dependency-cruiser.cjs).
    files: ['src/**/*.ts'],
    ignores: ['src/config/**', 'src/cli/**', '**/*.spec.ts', '**/*.e2e-spec.ts'],
    rules: { 'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read settings through src/config (AppConfig).' }] },
  },
);
