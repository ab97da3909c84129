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
    '^.+\\.ts$': '<rootDir>/test/support/swc-transform.cjs',
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
  // Jest keeps every ES module a suite loaded alive in its worker, so a worker's heap grows by some
  // MB a suite (1.6 GB by the end of the unit project) and each major collection gets slower; a
  // worker that passes this after a suite is replaced by a fresh one. Measured on the unit project
  // (2 cores): 120 s of CPU and 65 s without it, 104–107 s and 57–58 s with it at 400 or 800 MB.
  // An e2e suite, which starts the application, adds about 30 MB: there the limit bounds the memory
  // two workers take (the e2e project's time did not change: 752 s against 663–790 s before).
  workerIdleMemoryLimit: '512MB',
  // A global option: a project's own testTimeout is ignored when the projects run together.
  testTimeout: 60000,
};
