/** The suites that measure timing (test/quiet), one at a time, after the others (see jest.config.cjs). */
const base = require('./jest.config.cjs');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/quiet'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
  testSequencer: '<rootDir>/jest.quiet-order.cjs',
};
