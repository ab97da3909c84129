/** The e2e project alone (`npm run test:e2e`); the projects are described in jest.config.cjs. */
const { projects, maxWorkers, testTimeout, workerIdleMemoryLimit } = require('./jest.config.cjs');

module.exports = { ...projects.find((project) => project.displayName === 'e2e'), maxWorkers, testTimeout, workerIdleMemoryLimit };
