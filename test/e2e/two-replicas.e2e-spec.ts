import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SUITE_TAG } from '../helpers/processes.js';
import { makeApi, startHarness, type Api, type Harness, type Peer } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES, startHttpUpstream, type RunningUpstream } from '../helpers/upstreams.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
/** Short, so that calls A left `started` can be swept within the test (they are past it plus a minute). */
const MAX_CALL_TIMEOUT_MS = 5_000;
const SWEEP_MARGIN_MS = 60_000;
const REFRESH_INTERVAL_SECONDS = 2;

interface Execution {
  id: string;
  qualifiedName: string;
  status: string;
  arguments: { n?: number; message?: string };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `condition` holds; answers how long that took (ms), or undefined past `withinMs`. */
async function timeUntil(condition: () => boolean | Promise<boolean>, withinMs: number, pollMs = 10): Promise<number | undefined> {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > withinMs) return undefined;
    await sleep(pollMs);
  }
  return Date.now() - start;
}

async function history(api: Api, tool: string): Promise<Execution[]> {
  const items: Execution[] = [];
  let cursor: string | null = null;
  do {
    const page: { status: number; body: { items: Execution[]; nextCursor: string | null } } = await api.get<{ items: Execution[]; nextCursor: string | null }>(
      `/api/v1/executions?tool=${tool}&limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor);
  return items;
}

/** One counter of a replica's /metrics. */
async function metric(api: Api, name: string, labels: string): Promise<number> {
  const text = (await api.request<string>('GET', '/metrics')).body;
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line ? Number(line.split(' ').pop()) : 0;
}

/**
 * Two Toolplane replicas (real processes) on one database, with the same keys, act as one:
 * the catalog, scheduled refreshes, the history, rate limits and both hash chains are the
 * cluster's, and killing one replica under load loses no recorded call.
 */
describe('two replicas on one database', () => {
  const tag = `${SUITE_TAG}-replicas`;
  const logDir = mkdtempSync(join(tmpdir(), 'toolplane-replicas-log-'));
  const callLog = join(logDir, 'calls.jsonl');
  // The sandboxed plugin (uid 65534 when the tests run as root) appends to the log.
  chmodSync(logDir, 0o777);
  const settings = {
    TOOLPLANE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    TOOLPLANE_REFRESH_TICK_MS: '200',
    TOOLPLANE_MAX_CALL_TIMEOUT_MS: String(MAX_CALL_TIMEOUT_MS),
  };
  // B is the harness's first process; A is a peer, the one killed at the end.
  let h: Harness;
  let a: Peer;
  let A: Api;
  let B: Api;
  let echoUpstream: RunningUpstream;
  const clients: Client[] = [];
  const report: string[] = [];

  beforeAll(async () => {
    h = await startHarness(settings);
    a = await h.startPeer(settings);
    A = a.api;
    B = h.api;
    echoUpstream = await startHttpUpstream((port) => [join(FIXTURES, 'http-echo-server.mjs'), '--port', String(port), tag], '/mcp');
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await echoUpstream?.stop();
    await h?.close();
    rmSync(logDir, { recursive: true, force: true });
    if (process.env.TOOLPLANE_TEST_REPORT) console.log(report.join('\n'));
  }, 60_000);

  it("shows a source registered on A in B's REST catalog and B's MCP tools/list within a second", async () => {
    // One client of each protocol era, connected to B before the registration.
    const changedAt: Record<string, number> = {};
    const connect = async (era: string) => {
      const client = new Client(
        { name: `replica-b-${era}`, version: '1' },
        { versionNegotiation: { mode: era === MODERN ? { pin: MODERN } : 'legacy' }, listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => void (changedAt[era] ||= Date.now()) } } },
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } } }));
      clients.push(client);
      expect((await client.listTools({}, { cacheMode: 'bypass' })).tools.some((tool) => tool.name.startsWith('ev__'))).toBe(false);
      return client;
    };
    const eras = [MODERN, LEGACY];
    const connected = await Promise.all(eras.map(connect));
    await sleep(300); // the subscription and the standalone stream open in the background

    const registered = await A.post('/api/v1/sources', { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'], refreshIntervalSeconds: 0 });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ health: 'healthy' });
    const answeredAt = Date.now();

    const restMs = await timeUntil(async () => (await B.get('/api/v1/tools?source=ev')).body.items.some((t: { qualifiedName: string }) => t.qualifiedName === 'ev__echo'), 1000);
    const listedMs = await Promise.all(
      connected.map((client) => timeUntil(async () => (await client.listTools({}, { cacheMode: 'bypass' })).tools.some((tool) => tool.name === 'ev__echo'), 1000)),
    );
    await timeUntil(() => eras.every((era) => changedAt[era]), 1000);
    const notifiedMs = eras.map((era) => (changedAt[era] ? changedAt[era] - answeredAt : undefined));
    report.push(`catalog on B after the registration on A answered: REST ${restMs} ms; tools/list ${eras.map((era, i) => `${era} ${listedMs[i]} ms`).join(', ')}; list_changed ${eras.map((era, i) => `${era} ${notifiedMs[i]} ms`).join(', ')}`);
    expect(restMs).toBeDefined();
    expect(listedMs).toEqual([expect.any(Number), expect.any(Number)]);
    for (const ms of notifiedMs) expect(ms).toBeLessThan(1000);
  });

  it('runs a scheduled refresh once per interval across the cluster, not once per replica', async () => {
    const registered = await B.post('/api/v1/sources', { name: 'web', transport: 'streamable-http', url: echoUpstream.url, refreshIntervalSeconds: REFRESH_INTERVAL_SECONDS });
    expect(registered.status).toBe(201);
    const refreshes = async () => [await metric(A, 'toolplane_refreshes_total', 'outcome="ok"'), await metric(B, 'toolplane_refreshes_total', 'outcome="ok"')];
    const before = await refreshes();
    const windowMs = 10_000;
    await sleep(windowMs);
    const after = await refreshes();
    const onA = after[0]! - before[0]!;
    const onB = after[1]! - before[1]!;
    report.push(`scheduled refreshes in ${windowMs} ms at ${REFRESH_INTERVAL_SECONDS} s: ${onA} on A + ${onB} on B`);
    const intervals = windowMs / 1000 / REFRESH_INTERVAL_SECONDS;
    // Once per interval (a tick late at most), where each replica on its own would make it twice that.
    expect(onA + onB).toBeGreaterThanOrEqual(intervals - 2);
    expect(onA + onB).toBeLessThanOrEqual(intervals + 1);
    await B.patch('/api/v1/sources/web', { refreshIntervalSeconds: 0 });
  }, 30_000);

  it("keeps one history: calls made on A and on B are listed by either replica's GET /executions", async () => {
    const made: string[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await (i % 2 ? B : A).post('/api/v1/tools/ev__echo/invoke', { arguments: { message: `history-${i}` } });
      expect(response.status).toBe(200);
      made.push(response.body.id);
    }
    for (const api of [A, B]) {
      const ids = (await history(api, 'ev__echo')).map((execution) => execution.id);
      expect(ids).toEqual(expect.arrayContaining(made));
    }
  });

  it("holds a source's rate limit across both replicas: alternating calls share one budget", async () => {
    // 60 a minute holds ten, for all callers of the tool on every replica together.
    expect((await A.post('/api/v1/sources', { name: 'lim', transport: 'streamable-http', url: echoUpstream.url, refreshIntervalSeconds: 0, rateLimitPerMinute: 60 })).status).toBe(201);
    await timeUntil(async () => (await B.get('/api/v1/tools/lim__echo')).status === 200, 2000);
    const statuses: number[] = [];
    const started = performance.now();
    for (let i = 0; i < 16; i++) statuses.push((await (i % 2 ? B : A).post('/api/v1/tools/lim__echo/invoke', { arguments: { message: 'x' } })).status);
    // One token a second refills while the calls run.
    const refilled = Math.ceil((performance.now() - started) / 1000);
    const allowed = statuses.filter((status) => status === 200).length;
    report.push(`source limit 60/min over A and B alternating: ${allowed} of 16 allowed (${refilled} s)`);
    // Ten, plus what refilled; each replica alone would have let all 16 through (eight each).
    expect(allowed).toBeGreaterThanOrEqual(10);
    expect(allowed).toBeLessThanOrEqual(10 + refilled);
    expect(allowed).toBeLessThan(16);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toContain(429);
  });

  it("holds a principal's rate limit across both replicas", async () => {
    // 30 a minute holds five.
    const key = (await A.post('/api/v1/api-keys', { name: 'agent', role: 'agent', rateLimitPerMinute: 30 })).body.key as string;
    const onA = makeApi(a.url, key);
    const onB = makeApi(h.url, key);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await (i % 2 ? onB : onA).post('/api/v1/tools/ev__get-sum/invoke', { arguments: { a: 1, b: i } })).status);
    expect(statuses.slice(0, 5)).toEqual(Array(5).fill(200));
    expect(statuses.slice(-2)).toEqual([429, 429]);
  });

  it('keeps the audit chain and the execution chain intact with both replicas writing, also at the same time', async () => {
    const eventsBefore = (await B.get('/api/v1/audit-events/verify')).body.events as number;
    // Administrative changes and calls on both replicas at once.
    const writes = await Promise.all(
      Array.from({ length: 24 }, (_, i) => {
        const api = i % 2 ? B : A;
        if (i % 3 === 0) return api.put(`/api/v1/secrets/CONCURRENT_${i}`, { value: `v${i}` });
        if (i % 3 === 1) return api.post('/api/v1/api-keys', { name: `concurrent ${i}`, role: 'agent' });
        return api.post('/api/v1/tools/ev__get-sum/invoke', { arguments: { a: i, b: 1 } });
      }),
    );
    expect(writes.map((write) => write.status).filter((status) => status >= 300)).toEqual([]);
    for (const api of [A, B]) {
      const audit = await api.get('/api/v1/audit-events/verify');
      expect(audit.status).toBe(200);
      expect(audit.body).toMatchObject({ intact: true });
      expect(audit.body.events).toBe(eventsBefore + 16);
      let chain: { intact: boolean; pending: number; events: number } | undefined;
      await timeUntil(async () => (chain = (await api.get('/api/v1/executions/verify')).body).pending === 0, 10_000, 100);
      expect(chain).toMatchObject({ intact: true, pending: 0 });
    }
  });

  it('loses no recorded call when A is killed under load, and B keeps serving', async () => {
    const registered = await B.post('/api/v1/sources', {
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
    await timeUntil(async () => (await A.get('/api/v1/tools/crash__echo_keys')).status === 200, 2000);
    const logged = (): number[] =>
      existsSync(callLog)
        ? readFileSync(callLog, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => (JSON.parse(line) as { arguments: { n: number } }).arguments.n)
        : [];

    // 8 callers on each replica, each calling again as soon as it is answered.
    let next = 0;
    let killedAt = 0;
    let stopAt = Infinity;
    const answered = new Map<number, string>(); // n → execution id, for every 200
    const failuresOnB: string[] = [];
    let answeredByBAfterKill = 0;
    const caller = async (api: Api, replica: 'A' | 'B') => {
      while (Date.now() < stopAt) {
        const n = next++;
        try {
          const response = await api.post('/api/v1/tools/crash__echo_keys/invoke', { arguments: { n } });
          if (response.status === 200) {
            answered.set(n, response.body.id);
            if (replica === 'B' && killedAt) answeredByBAfterKill++;
          } else if (replica === 'B') failuresOnB.push(`${response.status} ${JSON.stringify(response.body?.error)}`);
        } catch (error) {
          if (replica === 'A') return; // connection refused or reset: A is gone
          failuresOnB.push(String(error));
        }
      }
    };
    const callers = [...Array.from({ length: 8 }, () => caller(A, 'A')), ...Array.from({ length: 8 }, () => caller(B, 'B'))];
    while (logged().length < 200) await sleep(20);
    a.process.child.kill('SIGKILL');
    killedAt = Date.now();
    // B goes on serving for two more seconds after A died.
    stopAt = killedAt + 2_000;
    await Promise.all(callers);
    await a.close().catch(() => undefined); // it exited by the signal, not with 0
    expect(failuresOnB).toEqual([]);
    expect(answeredByBAfterKill).toBeGreaterThan(10);
    expect((await B.post('/api/v1/tools/ev__echo/invoke', { arguments: { message: 'after' } })).status).toBe(200);

    // Every call answered 200 is in the history.
    const recorded = new Map((await history(B, 'crash__echo_keys')).map((execution) => [execution.arguments.n!, execution]));
    const lost = [...answered].filter(([n, id]) => recorded.get(n)?.id !== id).map(([n]) => n);
    expect(lost).toEqual([]);
    // Every call the upstream saw is in the history, or written down as started by A (not answered).
    const sent = logged();
    const startedRows = await h.sql<{ n: number; started_at: Date }>(`SELECT (record->'arguments'->>'n')::int AS n, started_at FROM execution_starts`);
    const started = new Set(startedRows.map((row) => row.n));
    expect(sent.filter((n) => !recorded.has(n) && !started.has(n))).toEqual([]);
    expect([...started].filter((n) => answered.has(n))).toEqual([]);
    report.push(`kill under load: upstream saw ${sent.length}, answered ${answered.size} (B after the kill ${answeredByBAfterKill}), left started by A ${started.size}`);

    // A's started calls become `interrupted` once past the longest possible call: here, when A is
    // restarted by its supervisor after that time (B's own periodic sweep would do it within a minute more).
    if (startedRows.length > 0) {
      const newest = Math.max(...startedRows.map((row) => new Date(row.started_at).getTime()));
      await sleep(Math.max(0, newest + MAX_CALL_TIMEOUT_MS + SWEEP_MARGIN_MS + 500 - Date.now()));
    }
    const restarted = await h.startPeer(settings);
    const after = new Map((await history(restarted.api, 'crash__echo_keys')).map((execution) => [execution.arguments.n!, execution]));
    expect(sent.filter((n) => !after.has(n))).toEqual([]);
    expect(sent.filter((n) => !['succeeded', 'interrupted'].includes(after.get(n)!.status))).toEqual([]);
    expect([...started].every((n) => after.get(n)!.status === 'interrupted')).toBe(true);
    expect(await h.sql('SELECT id FROM execution_starts')).toEqual([]);
    let chain: { intact: boolean; pending: number } | undefined;
    await timeUntil(async () => (chain = (await restarted.api.get('/api/v1/executions/verify')).body).pending === 0, 15_000, 100);
    expect(chain).toMatchObject({ intact: true, pending: 0 });
    await restarted.close();
    await h.api.delete('/api/v1/sources/crash');
  }, 180_000);
});
