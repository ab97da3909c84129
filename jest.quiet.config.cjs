/** The suites that measure timing (test/quiet), one at a time, after the others (see jest.config.cjs). */
const e2e = require('./jest.e2e.config.cjs');

module.exports = {
  ...e2e,
  displayName: 'quiet',
  roots: ['<rootDir>/test/quiet'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
  // Each suite runs in band, as measured; no worker to replace.
  workerIdleMemoryLimit: undefined,
  testSequencer: '<rootDir>/jest.quiet-order.cjs',
};
