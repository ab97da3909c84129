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
    // Tests read loosely typed JSON answers.
    files: ['test/**/*.ts', '**/*.spec.ts', '**/*.e2e-spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Only src/upstream speaks to MCP servers (the SDK's client) and only the MCP server module answers MCP clients (its server).
    files: ['src/**/*.ts'],
    ignores: ['src/upstream/**', 'src/modules/mcp-server/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@modelcontextprotocol/*'] }] },
  },
  {
    files: ['src/upstream/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@modelcontextprotocol/server', '@modelcontextprotocol/server/*'] }] },
  },
  {
    files: ['src/modules/mcp-server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@modelcontextprotocol/client', '@modelcontextprotocol/client/*'] }] },
  },
  {
    // Domain code stays free of framework, ORM and SDK imports.
    files: ['src/modules/*/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@nestjs/*', 'typeorm', '@modelcontextprotocol/*', 'class-validator', 'class-transformer'] }],
    },
  },
);
