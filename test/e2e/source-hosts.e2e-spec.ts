import { join } from 'node:path';
import { SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES, startHttpUpstream, type RunningUpstream } from '../helpers/upstreams.js';

/**
 * A deny list holds at registration for every spelling of what it denies: with loopback denied, the
 * unspecified addresses (`[::]`, `0.0.0.0`) and IPv4-mapped loopback reach a server listening on
 * every address of this machine no more than `127.0.0.1` does.
 */
describe('registering a remote source under a loopback deny', () => {
  let h: Harness;
  let everywhere: RunningUpstream;

  beforeAll(async () => {
    everywhere = await startHttpUpstream((port) => [join(FIXTURES, 'http-echo-server.mjs'), '--port', String(port), '--host', '::', SUITE_TAG], '/mcp');
    h = await startHarness({ TOOLPLANE_SOURCE_HOSTS_DENY: 'default,127.0.0.0/8,::1' });
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await everywhere?.stop();
  });

  it('refuses every spelling of loopback, the unspecified addresses included, with the URL as the problem', async () => {
    const port = new URL(everywhere.url).port;
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '[::]', '0.0.0.0', '[0:0:0:0:0:0:0:0]', '[::ffff:0.0.0.0]', '[::ffff:127.0.0.1]']) {
      const answer = await h.api.post('/api/v1/sources', { name: 'local', transport: 'streamable-http', url: `http://${host}:${port}/mcp` });
      expect({ host, status: answer.status, code: answer.body.error?.code, details: answer.body.error?.details }).toEqual({
        host,
        status: 400,
        code: 'VALIDATION_FAILED',
        details: [{ path: 'url', message: expect.stringMatching(/is denied \(TOOLPLANE_SOURCE_HOSTS_DENY\)/) }],
      });
    }
    expect((await h.api.get('/api/v1/sources')).body.items).toEqual([]);
  });
});
