import { join } from 'node:path';
import { SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES } from '../helpers/upstreams.js';

/**
 * The default waiting room of a source absorbs a burst of a thousand calls beyond its
 * maxConcurrency: every one is answered, none refused (beyond the room: 429 with Retry-After,
 * see the resilience suite).
 */
describe('the waiting room of a source', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    const registered = await h.api.post('/api/v1/sources', {
      name: 'narrow',
      transport: 'stdio',
      lifecycle: 'singleton',
      command: process.execPath,
      args: [join(FIXTURES, 'hostile-server.mjs'), SUITE_TAG],
      env: { HOSTILE_TOOLS: 'echo_keys', HOSTILE_ECHO_DELAY_MS: '10' },
      maxConcurrency: 4,
      refreshIntervalSeconds: 0,
    });
    expect(registered.body.health).toBe('healthy');
  });

  afterAll(async () => {
    await h?.close();
  });

  it('answers 1,004 simultaneous calls to a source that runs 4 at a time', async () => {
    const answers = await Promise.all(
      Array.from({ length: 1004 }, (_, n) =>
        fetch(`${h.url}/api/v1/tools/narrow__echo_keys/invoke`, {
          method: 'POST',
          headers: { authorization: `Bearer ${h.adminKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ arguments: { n }, timeoutMs: 60_000 }),
        }).then((response) => response.status),
      ),
    );
    const byStatus = answers.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
    expect(byStatus).toEqual({ 200: 1004 });
  }, 60_000);
});
