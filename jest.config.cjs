/**
 * Jest runs in native ESM mode: NestJS 12 and the MCP SDK ship as ES modules.
 *
 * Two projects, told apart by the file name:
 *   unit  `*.spec.ts`      in-memory only: no PostgreSQL, no network, no subprocess, no browser
 *   e2e   `*.e2e-spec.ts`  real parts: the PostgreSQL the global setup starts, servers, plugins, Chromium
 * A project's global setup runs only when one of its suites is in the run, so `--selectProjects unit`
 * starts no database and a run of both starts it once.
 */
const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test', '<rootDir>/console'],
  // Suites that measure timing run alone afterwards (jest.quiet.config.cjs): beside the other
  // suites on two cores, CPU starvation would be measured, not Toolplane.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/quiet/'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.json', diagnostics: false }],
  },
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
  maxWorkers: 2,
  // A global option: a project's own testTimeout is ignored when the projects run together.
  testTimeout: 60000,
};
