/**
 * The quiet suites in a fixed order: those that measure Toolplane's event loop first, the console at
 * 10,000 tools last, since the database it fills and drops keeps the machine busy for a while after.
 */
const Sequencer = require('@jest/test-sequencer').default;

const LAST = ['console-catalog-scale'];

class QuietOrder extends Sequencer {
  sort(tests) {
    const rank = (test) => (LAST.some((name) => test.path.includes(name)) ? 1 : 0);
    return [...tests].sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
  }
}

module.exports = QuietOrder;
