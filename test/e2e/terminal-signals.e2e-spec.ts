import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeApi } from '../helpers/toolplane-harness.js';
import { expectNoProcesses, isLive, processesMatching, SUITE_TAG } from '../helpers/processes.js';
import { CLI, spawnToolplane, type SpawnOptions, type ToolplaneProcess } from '../helpers/toolplane-process.js';
import { FIXTURES } from '../helpers/upstreams.js';

const FAULTY = join(FIXTURES, 'faulty-server.mjs');
const GRACE_MS = 10_000;

/**
 * A terminal's Ctrl-C signals the whole foreground process group. Toolplane, started as a shell
 * starts a job (a group of its own), must drain its calls on its own database, stop the database
 * last, say it stopped, exit 0 and leave no process behind; so must `toolplane serve`.
 */
describe('signals from a terminal', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolplane-terminal-'));
  const env = { TOOLPLANE_DATA_DIR: dataDir, TOOLPLANE_REFRESH_TICK_MS: '3600000', TOOLPLANE_SHUTDOWN_GRACE_MS: String(GRACE_MS) };
  let toolplane: ToolplaneProcess | undefined;

  afterEach(async () => {
    await toolplane?.stop();
    toolplane = undefined;
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const postmasterPid = () => Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

  /** Starts Toolplane in a group of its own, signals it as `to` says, and checks how it ended. */
  async function stopsCleanly(options: SpawnOptions, signal: NodeJS.Signals, to: 'group' | 'process', during?: (api: ReturnType<typeof makeApi>) => Promise<() => Promise<void>>) {
    toolplane = await spawnToolplane(env, { ...options, detached: true });
    const pid = toolplane.child.pid!;
    const postgres = postmasterPid();
    expect(isLive(postgres)).toBe(true);
    const api = makeApi(toolplane.url, readFileSync(join(dataDir, 'admin.key'), 'utf8').trim());
    const check = during ? await during(api) : async () => undefined;

    const exited = new Promise<number | null>((resolve) => toolplane!.child.once('exit', (code) => resolve(code)));
    const signalledAt = Date.now();
    process.kill(to === 'group' ? -pid : pid, signal);
    const code = await Promise.race([exited, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), GRACE_MS + 5000))]);
    const logs = toolplane.logs();
    expect({ code, logs: logs.includes(`${signal}: shutting down`) }).toEqual({ code: 0, logs: true });
    expect(Date.now() - signalledAt).toBeLessThan(GRACE_MS);
    expect(logs).toMatch(/"msg":"Toolplane stopped in \d+ ms"/);
    expect(logs).not.toContain('sealing execution records failed');
    expect(logs).not.toMatch(/"level":(50|60)/);
    await check();
    expect(isLive(postgres)).toBe(false);
    await expectNoProcesses([dataDir, SUITE_TAG]);
    // Nothing is left in the group the terminal knew either.
    expect(processesInGroup(pid)).toEqual([]);
  }

  it('Ctrl-C (SIGINT to the whole group): the call under way finishes and is recorded, then the database stops', async () => {
    await stopsCleanly({}, 'SIGINT', 'group', async (api) => {
      const registered = await api.post('/api/v1/sources', {
        name: 'faulty',
        transport: 'stdio',
        lifecycle: 'singleton',
        command: process.execPath,
        args: [FAULTY, SUITE_TAG],
        refreshIntervalSeconds: 0,
      });
      expect(registered.body.health).toBe('healthy');
      const inFlight = api.post('/api/v1/tools/faulty__slow/invoke', { arguments: { ms: 3000 } });
      await new Promise((resolve) => setTimeout(resolve, 500));
      return async () => {
        const answer = await inFlight;
        expect(answer.status).toBe(200);
        expect(answer.body.status).toBe('succeeded');
        expect(processesMatching(SUITE_TAG)).toEqual([]);
      };
    });
    // The call's record was committed before the answer: it is there after a restart.
    toolplane = await spawnToolplane(env);
    const api = makeApi(toolplane.url, readFileSync(join(dataDir, 'admin.key'), 'utf8').trim());
    const history = await api.get('/api/v1/executions?tool=faulty__slow');
    expect(history.body.items.map((item: { status: string }) => item.status)).toEqual(['succeeded']);
  });

  it('SIGTERM to the whole group', async () => {
    await stopsCleanly({}, 'SIGTERM', 'group');
  });

  describe('toolplane serve (as npx runs it)', () => {
    for (const [signal, to] of [
      ['SIGINT', 'group'],
      ['SIGTERM', 'group'],
      ['SIGINT', 'process'],
      ['SIGTERM', 'process'],
    ] as const) {
      it(`${signal} to the ${to}`, async () => {
        await stopsCleanly({ entry: [CLI, 'serve'] }, signal, to);
      });
    }
  });
});

/** Live members of process group `pgid`, as "pid (name)" (zombies excluded). */
function processesInGroup(pgid: number): string[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // "pid (comm) state ppid pgrp …"; comm may hold spaces, so read after the last ')'.
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return pgrp === String(pgid) && state !== 'Z' ? [`${pid} ${stat.slice(stat.indexOf('('), stat.lastIndexOf(')') + 1)}`] : [];
      } catch {
        return []; // gone meanwhile
      }
    });
}
