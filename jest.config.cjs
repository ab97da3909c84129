/** Jest runs in native ESM mode: NestJS 12 and the MCP SDK ship as ES modules. */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test', '<rootDir>/console'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  // Suites that measure Toolplane's event loop run alone afterwards (jest.quiet.config.cjs): beside
  // the other suites on two cores, CPU starvation would be measured, not Toolplane.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/quiet/'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.json', diagnostics: false }],
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
