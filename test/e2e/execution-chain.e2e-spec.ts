import { executionLinkHash } from '../../src/modules/executions/domain/execution-chain.js';
import { RECORD_COLUMNS, recordContent, recordDigest, type RecordRow } from '../../src/modules/executions/infrastructure/execution-chain-rows.js';
import { makeApi, startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING } from '../helpers/upstreams.js';

/**
 * Execution records in a signed hash chain of their own: every recorded call (REST, MCP, refused,
 * interrupted) is linked by the sealer shortly after it is written, and `verify` names the first
 * record that was altered, deleted, or written past the recorder.
 */
describe('execution chain', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ TOOLPLANE_EXECUTION_SEAL_INTERVAL_MS: '100' });
    const created = await h.api.post('/api/v1/sources', { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] });
    expect(created.status).toBe(201);
    for (let i = 0; i < 30; i++) expect((await h.api.post('/api/v1/tools/ev__echo/invoke', { arguments: { message: `call ${i}` } })).status).toBe(200);
    // Values whose stored form differs from how they were sent (key order, number spelling, unicode) and an MCP call.
    const odd = { message: 'é ✓ 🧪 "quoted" \\ back', z: 1, a: { big: 1e21, small: 5e-7, neg: -0, list: [3, 1.5, null, true] } };
    expect((await h.api.post('/api/v1/tools/ev__echo/invoke', { arguments: odd })).status).toBe(200);
    const mcp = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization: `Bearer ${h.adminKey}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ev__get-structured-content', arguments: { location: 'Chicago' } } }),
    });
    expect(mcp.status).toBe(200);
    // Refused calls are recorded, and linked, too.
    expect((await h.api.post('/api/v1/tools/ev__echo/invoke', { arguments: { message: 42 } })).status).toBe(400);
    expect((await h.api.post('/api/v1/tools/ev__nothing/invoke', { arguments: {} })).status).toBe(404);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  /** The report once the sealer has linked everything written so far. */
  const verifySealed = async () => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const report = (await h.api.get('/api/v1/executions/verify')).body;
      if (report.pending === 0 || Date.now() > deadline) return report;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const linked = () => h.sql<{ seq: string; execution_id: string }>('SELECT seq, execution_id FROM execution_chain ORDER BY seq');

  it('links every recorded call, in one line, each pass ending with a signed checkpoint', async () => {
    const report = await verifySealed();
    expect(report).toMatchObject({ intact: true, events: 34, pending: 0, unlinked: { count: 0, firstId: null }, head: { seq: 34 }, keyId: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(report.firstProblem).toBeUndefined();
    const [{ n }] = await h.sql<{ n: number }>('SELECT count(*)::int AS n FROM executions');
    expect(n).toBe(34);
    // Only checkpoints are signed: far fewer signatures than links.
    const [{ signed }] = await h.sql<{ signed: number }>('SELECT count(*)::int AS signed FROM execution_chain WHERE signature IS NOT NULL');
    expect(signed).toBeGreaterThanOrEqual(1);
    expect(signed).toBeLessThan(34);
    // Auditors may check it; agents may not.
    const auditor = (await h.api.post('/api/v1/api-keys', { name: 'auditor', role: 'auditor' })).body.key;
    const agent = (await h.api.post('/api/v1/api-keys', { name: 'agent', role: 'agent' })).body.key;
    expect((await makeApi(h.url, auditor).get('/api/v1/executions/verify')).status).toBe(200);
    expect((await makeApi(h.url, agent).get('/api/v1/executions/verify')).status).toBe(403);
  });

  it('links a record once, also when it is queued again after it was linked', async () => {
    const rows = await linked();
    // Queued again (with and without its digest) behind a record that is pending for the first time.
    await h.sql(`INSERT INTO execution_chain_pending (execution_id, digest) SELECT execution_id, 'not-its-digest' FROM execution_chain WHERE seq = 3`);
    await h.sql(`INSERT INTO execution_chain_pending (execution_id) SELECT execution_id FROM execution_chain WHERE seq = 4`);
    expect((await h.api.post('/api/v1/tools/ev__echo/invoke', { arguments: { message: 'after the requeue' } })).status).toBe(200);
    expect(await verifySealed()).toMatchObject({ intact: true, events: 35, pending: 0, head: { seq: 35 } });
    const now = await linked();
    expect(now.slice(0, 34)).toEqual(rows);
    expect(new Set(now.map((row) => row.execution_id)).size).toBe(35);
    // Back to the 34 records the later tests expect.
    const newest = now[34]!.execution_id;
    await h.sql('DELETE FROM execution_chain WHERE seq = 35');
    await h.sql('DELETE FROM executions WHERE id = $1', [newest]);
    expect(await verifySealed()).toMatchObject({ intact: true, events: 34 });
  });

  it('names an altered record, also when the attacker recomputed its link', async () => {
    const rows = await linked();
    const target = rows[10]!;
    const [before] = await h.sql<{ status: string; result: unknown }>('SELECT status, result FROM executions WHERE id = $1', [target.execution_id]);
    await h.sql(`UPDATE executions SET result = jsonb_set(result, '{content,0,text}', '"forged"') WHERE id = $1`, [target.execution_id]);
    expect(await verifySealed()).toMatchObject({ intact: false, events: 10, firstProblem: { seq: 11, id: target.execution_id, problem: 'altered' } });

    // Recomputing this link (and every later one) without the key leaves the newest checkpoint's signature wrong.
    await relink(Number(target.seq));
    const report = await verifySealed();
    expect(report.intact).toBe(false);
    expect(['bad signature', 'unsigned']).toContain(report.firstProblem.problem);

    await h.sql('UPDATE executions SET result = $2 WHERE id = $1', [target.execution_id, before!.result]);
    await restoreLinks();
    expect(await verifySealed()).toMatchObject({ intact: true, events: 34 });
  });

  it('names a deleted record, and a record written straight into the table', async () => {
    const rows = await linked();
    const target = rows[20]!;
    const [saved] = await h.sql(`SELECT * FROM executions WHERE id = $1`, [target.execution_id]);
    await h.sql('DELETE FROM executions WHERE id = $1', [target.execution_id]);
    expect(await verifySealed()).toMatchObject({ intact: false, firstProblem: { seq: 21, id: target.execution_id, problem: 'missing' } });
    await h.sql(
      `INSERT INTO executions SELECT * FROM jsonb_populate_record(NULL::executions, $1::jsonb)`,
      [JSON.stringify(saved)],
    );
    expect(await verifySealed()).toMatchObject({ intact: true });

    const forged = '00000000-0000-4000-8000-00000000f0f0';
    await h.sql(
      `INSERT INTO executions (id, qualified_name, caller, caller_principal, channel, arguments, status, is_error, attempts, started_at, duration_ms)
       VALUES ($1, 'ev__echo', '{"principalId":"admin"}', 'admin', 'rest', '{}', 'succeeded', false, 1, now(), 1)`,
      [forged],
    );
    expect(await verifySealed()).toMatchObject({ intact: false, unlinked: { count: 1, firstId: forged } });
    await h.sql('DELETE FROM executions WHERE id = $1', [forged]);
  });

  it('names a link removed from the chain', async () => {
    const rows = await linked();
    const target = rows[5]!;
    const [saved] = await h.sql('SELECT * FROM execution_chain WHERE seq = $1', [target.seq]);
    await h.sql('DELETE FROM execution_chain WHERE seq = $1', [target.seq]);
    const report = await verifySealed();
    expect(report).toMatchObject({ intact: false, firstProblem: { seq: 7, problem: 'missing' }, unlinked: { count: 1, firstId: target.execution_id } });
    await h.sql(`INSERT INTO execution_chain SELECT * FROM jsonb_populate_record(NULL::execution_chain, $1::jsonb)`, [JSON.stringify(saved)]);
    expect(await verifySealed()).toMatchObject({ intact: true, events: 34 });
  });

  let original: { seq: string; prev_hash: string; hash: string; signature: string | null; key_id: string | null }[] = [];

  /** What an attacker with the database but without the key can do: recompute every link from `from` on. */
  async function relink(from: number): Promise<void> {
    original = await h.sql('SELECT seq, prev_hash, hash, signature, key_id FROM execution_chain WHERE seq >= $1 ORDER BY seq', [from]);
    const [previous] = await h.sql<{ hash: string }>('SELECT hash FROM execution_chain WHERE seq = $1', [from - 1]);
    let prevHash = previous!.hash;
    const rows = await h.sql<RecordRow & { seq: string }>(
      `SELECT c.seq, ${RECORD_COLUMNS} FROM execution_chain c JOIN executions e ON e.id = c.execution_id WHERE c.seq >= $1 ORDER BY c.seq`,
      [from],
    );
    for (const row of rows) {
      const hash = executionLinkHash(prevHash, Number(row.seq), recordDigest(recordContent(row)!));
      await h.sql('UPDATE execution_chain SET prev_hash = $2, hash = $3 WHERE seq = $1', [row.seq, prevHash, hash]);
      prevHash = hash;
    }
  }

  async function restoreLinks(): Promise<void> {
    for (const link of original) {
      await h.sql('UPDATE execution_chain SET prev_hash = $2, hash = $3, signature = $4, key_id = $5 WHERE seq = $1', [link.seq, link.prev_hash, link.hash, link.signature, link.key_id]);
    }
  }
});
