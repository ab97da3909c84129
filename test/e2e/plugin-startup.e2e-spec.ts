import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { CLI } from '../helpers/toolplane-process.js';
import { FIXTURES } from '../helpers/upstreams.js';

const BANNER = join(FIXTURES, 'banner-server.mjs');
const HANGING = join(FIXTURES, 'hanging-server.mjs');
const BANNER_QUOTED = String.raw`"\u001b[32mWeather MCP v1.4\u001b[0m listening on http://localhost:3000\nPress Ctrl+C to stop"`;
const BANNER_ERROR = `the plugin wrote ${BANNER_QUOTED} on stdout; MCP needs JSON-RPC there; its stderr ends with: weather: using the HTTP transport (set WEATHER_TRANSPORT=stdio for MCP over stdio)`;
const HANGING_STDERR = 'hanging: waiting for a licence server that never answers';

const stdio = (name: string, script: string) => ({ name, transport: 'stdio', command: process.execPath, args: [script, SUITE_TAG], refreshIntervalSeconds: 0 });

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Registration of plugins that do not speak MCP when started: what the answer and `toolplane sources add` say, and how soon. */
describe('plugins that do not speak MCP on start', () => {
  const home = mkdtempSync(join(tmpdir(), 'toolplane-startup-cli-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  const cli = (h: Harness, args: string[]): Promise<Run> =>
    new Promise((done, fail) => {
      const child = spawn(process.execPath, [CLI, ...args], {
        env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1', TOOLPLANE_URL: h.url, TOOLPLANE_API_KEY: h.adminKey },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('error', fail);
      child.once('close', (code) => done({ code, stdout, stderr }));
    });

  describe('when the registration waits as long as a discovery may take (the defaults: both 30 s)', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({ TOOLPLANE_REGISTRATION_WAIT_MS: '6000', TOOLPLANE_DISCOVERY_TIMEOUT_MS: '6000' });
    });
    afterAll(async () => {
      await h.close();
      await expectNoSuiteProcesses();
    });

    it('a banner on stdout is refused within seconds, the answer quoting it and the stderr', async () => {
      const startedAt = Date.now();
      const answer = await h.api.post('/api/v1/sources', stdio('banner', BANNER));
      expect(Date.now() - startedAt).toBeLessThan(5000);
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ health: 'unhealthy', lastError: BANNER_ERROR, discovery: null, toolCount: 0 });
    });

    it('a plugin that hangs: the answer is the timeout, naming its stderr', async () => {
      const answer = await h.api.post('/api/v1/sources', stdio('hanging', HANGING));
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({
        health: 'unhealthy',
        lastError: `timed out after 6000 ms connecting: the plugin wrote nothing on stdout; its stderr ends with: ${HANGING_STDERR}`,
        discovery: null,
      });
    });

    it('sources add exits 1 and prints why, also with --json', async () => {
      const run = await cli(h, ['sources', 'add', 'banner-cli', '--', process.execPath, BANNER, SUITE_TAG]);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^health: +unhealthy$/m);
      expect(run.stderr).toBe(`registered banner-cli\nerror: banner-cli is registered, but its first discovery failed: ${BANNER_ERROR}\n`);
      const json = await cli(h, ['sources', 'add', 'banner-json', '--json', '--', process.execPath, BANNER, SUITE_TAG]);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({ name: 'banner-json', health: 'unhealthy', lastError: BANNER_ERROR });
      // Not waiting was asked for: the answer is no failure.
      const noWait = await cli(h, ['sources', 'add', 'banner-later', '--no-wait', '--', process.execPath, BANNER, SUITE_TAG]);
      expect(noWait.code).toBe(0);
    });
  });

  describe('when the registration waits less than a discovery may take', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({ TOOLPLANE_REGISTRATION_WAIT_MS: '2500', TOOLPLANE_DISCOVERY_TIMEOUT_MS: '8000' });
    });
    afterAll(async () => {
      await h.close();
      await expectNoSuiteProcesses();
    });

    it('the answer says the discovery is still running and what the plugin wrote; the outcome follows', async () => {
      const answer = await h.api.post('/api/v1/sources', stdio('slow-start', HANGING));
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({
        health: 'unknown',
        lastError: null,
        discovery: { since: expect.any(String), progress: `connecting: the plugin wrote nothing on stdout; its stderr ends with: ${HANGING_STDERR}` },
      });
      let source = answer.body;
      const deadline = Date.now() + 15_000;
      while (source.health === 'unknown' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        source = (await h.api.get('/api/v1/sources/slow-start')).body;
      }
      expect(source).toMatchObject({
        health: 'unhealthy',
        lastError: `timed out after 8000 ms connecting: the plugin wrote nothing on stdout; its stderr ends with: ${HANGING_STDERR}`,
        discovery: null,
      });
    });

    it('sources add exits 1, saying the discovery is still running and what the plugin wrote', async () => {
      const run = await cli(h, ['sources', 'add', 'slow-cli', '--', process.execPath, HANGING, SUITE_TAG]);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^health: +unknown$/m);
      expect(run.stderr).toBe(
        `registered slow-cli\nerror: slow-cli is registered, but its first discovery is still running (connecting: the plugin wrote nothing on stdout; its stderr ends with: ${HANGING_STDERR}); see "toolplane sources get slow-cli"\n`,
      );
    });
  });
});
