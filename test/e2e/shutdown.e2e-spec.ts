import { join } from 'node:path';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES } from '../helpers/upstreams.js';

const FAULTY = join(FIXTURES, 'faulty-server.mjs');

describe('graceful shutdown', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ TOOLPLANE_SHUTDOWN_GRACE_MS: '10000' });
    for (const source of [
      { name: 'faulty', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [FAULTY, SUITE_TAG] },
      { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio', SUITE_TAG] },
    ]) {
      expect((await h.api.post('/api/v1/sources', { refreshIntervalSeconds: 0, ...source })).body.health).toBe('healthy');
    }
  });

  afterAll(async () => {
    await h.close();
  });

  it('lets calls under way finish and be recorded, then stops every plugin process and exits 0', async () => {
    const inFlight = h.api.post('/api/v1/tools/faulty__slow/invoke', { arguments: { ms: 1500 } });
    await new Promise((r) => setTimeout(r, 300));
    const stopped = h.process.stop();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('succeeded');
    expect(await stopped).toBe(0);
    const [row] = await h.sql('SELECT status FROM executions WHERE id = $1', [answer.body.id]);
    expect(row.status).toBe('succeeded');
    expect(h.process.logs()).toContain('SIGTERM: shutting down');
    await expectNoSuiteProcesses(3000);
  });
});
