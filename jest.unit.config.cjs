/** The unit project alone (`npm run test:unit`); the projects are described in jest.config.cjs. */
const { projects, maxWorkers, testTimeout, workerIdleMemoryLimit } = require('./jest.config.cjs');

module.exports = { ...projects.find((project) => project.displayName === 'unit'), maxWorkers, testTimeout, workerIdleMemoryLimit };
