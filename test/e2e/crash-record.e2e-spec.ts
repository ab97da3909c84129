import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoProcesses, SUITE_TAG } from '../helpers/processes.js';
import { spawnToolplane, type ToolplaneProcess } from '../helpers/toolplane-process.js';
import { FIXTURES } from '../helpers/upstreams.js';

interface Execution {
  id: string;
  status: string;
  arguments: { n?: number };
  error: { code: string } | null;
}

/**
 * `kill -9` of Toolplane under load (the README's embedded database): every call the side-effecting
 * upstream logged has an execution after the restart — finished, or `interrupted` when Toolplane
 * died while the call was under way — and no plugin process outlives Toolplane.
 */
describe('a crash under load', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolplane-crash-'));
  const logDir = mkdtempSync(join(tmpdir(), 'toolplane-crash-log-'));
  const callLog = join(logDir, 'calls.jsonl');
  const tag = `${SUITE_TAG}-crash`;
  let toolplane: ToolplaneProcess | undefined;
  // The sandboxed plugin (uid 65534) appends to the log.
  chmodSync(logDir, 0o777);

  const api = (url: string, key: string) => async (method: string, path: string, body?: unknown) => {
    const response = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json().catch(() => undefined) };
  };
  const logged = (): number[] =>
    existsSync(callLog)
      ? readFileSync(callLog, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => (JSON.parse(line) as { arguments: { n: number } }).arguments.n)
      : [];

  afterAll(async () => {
    await toolplane?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(logDir, { recursive: true, force: true });
  });

  it('leaves a record for every call the upstream logged, and no plugin process', async () => {
    toolplane = await spawnToolplane({ TOOLPLANE_DATA_DIR: dataDir });
    let call = api(toolplane.url, readFileSync(join(dataDir, 'admin.key'), 'utf8').trim());
    const registered = await call('POST', '/api/v1/sources', {
      name: 'crash',
      transport: 'stdio',
      lifecycle: 'singleton',
      command: process.execPath,
      args: [join(FIXTURES, 'hostile-server.mjs'), tag],
      env: { HOSTILE_TOOLS: 'echo_keys', HOSTILE_CALL_LOG: callLog, HOSTILE_ECHO_DELAY_MS: '30' },
      sandbox: { writablePaths: [logDir] },
      maxConcurrency: 16,
      refreshIntervalSeconds: 0,
    });
    expect(registered.status).toBe(201);

    // 16 callers, each calling again as soon as it is answered, until Toolplane is gone.
    let next = 0;
    let answered = 0;
    const callers = Array.from({ length: 16 }, async () => {
      for (;;) {
        const n = next++;
        try {
          const response = await call('POST', '/api/v1/tools/crash__echo_keys/invoke', { arguments: { n } });
          if (response.status === 200) answered++;
        } catch {
          return; // connection refused or reset: Toolplane is gone
        }
      }
    });
    while (logged().length < 200) await new Promise((resolve) => setTimeout(resolve, 20));
    toolplane.child.kill('SIGKILL');
    await Promise.all(callers);
    await toolplane.stop();
    await expectNoProcesses([tag]);

    const sent = logged();
    expect(sent.length).toBeGreaterThan(answered);
    toolplane = await spawnToolplane({ TOOLPLANE_DATA_DIR: dataDir });
    call = api(toolplane.url, readFileSync(join(dataDir, 'admin.key'), 'utf8').trim());
    const executions: Execution[] = [];
    let cursor: string | null = null;
    do {
      const page = (await call('GET', `/api/v1/executions?tool=crash__echo_keys&limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)) as {
        status: number;
        body: { items: Execution[]; nextCursor: string | null };
      };
      expect(page.status).toBe(200);
      executions.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);

    const byN = new Map(executions.map((execution) => [execution.arguments.n, execution]));
    const missing = sent.filter((n) => !byN.has(n));
    expect(missing).toEqual([]);
    const statuses = new Set(sent.map((n) => byN.get(n)!.status));
    expect([...statuses].every((status) => status === 'succeeded' || status === 'interrupted')).toBe(true);
    const interrupted = executions.filter((execution) => execution.status === 'interrupted');
    expect(interrupted.length).toBeGreaterThan(0);
    expect(interrupted[0].error?.code).toBe('INTERRUPTED');
    expect(executions.some((execution) => execution.status === 'started')).toBe(false);
    // The records of the killed run and the interrupted ones join the executions' chain intact.
    let chain: { status: number; body: { intact: boolean; pending: number; events: number } };
    const deadline = Date.now() + 15_000;
    do {
      chain = (await call('GET', '/api/v1/executions/verify')) as typeof chain;
      if (chain.body.pending === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } while (Date.now() < deadline);
    expect(chain.body).toMatchObject({ intact: true, pending: 0 });
    expect(chain.body.events).toBeGreaterThanOrEqual(executions.length);
    if (process.env.TOOLPLANE_TEST_REPORT) {
      console.log(`logged ${sent.length}, answered ${answered}, recorded ${executions.length}, interrupted ${interrupted.length}`);
    }
  }, 120_000);
});
