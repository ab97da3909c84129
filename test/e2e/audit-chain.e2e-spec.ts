import { chainHash } from '../../src/modules/audit/domain/audit-chain.js';
import { toEvent, type Row } from '../../src/modules/audit/infrastructure/typeorm-audit-log.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING } from '../helpers/upstreams.js';

/**
 * The administrative audit trail as a signed hash chain: whoever edits, deletes or inserts rows
 * directly in PostgreSQL (even recomputing the hashes) is caught by `verify`, which names the
 * first event that is not what was written.
 */
describe('audit chain', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    for (let i = 0; i < 6; i++) expect((await h.api.put(`/api/v1/secrets/CHAIN_${i}`, { value: `v${i}` })).status).toBe(201);
    expect((await h.api.post('/api/v1/api-keys', { name: 'chained', role: 'auditor' })).status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  const verify = async () => (await h.api.get('/api/v1/audit-events/verify')).body;
  const rowsOf = () => h.sql<{ seq: string; id: string }>(`SELECT seq, id FROM audit_events ORDER BY seq`);

  it('links and signs every administrative change', async () => {
    const report = await verify();
    expect(report).toMatchObject({ intact: true, events: 7, head: { seq: 7, hash: expect.stringMatching(/^[0-9a-f]{64}$/) }, keyId: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(report.publicKey).toContain('BEGIN PUBLIC KEY');
    expect(report.firstProblem).toBeUndefined();
  });

  it('records before and after of an update (secrets masked), the request id and the client address, and still verifies', async () => {
    const registered = await h.api.post('/api/v1/sources', { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'], env: { MODE: 'one' } });
    expect(registered.status).toBe(201);
    const updated = await h.api.request('PATCH', '/api/v1/sources/ev', { timeoutMs: 20_000, env: { MODE: 'two', TOKEN: 'Bearer ${secret:CHAIN_1}', RAW: 'sk-literal-credential' } }, { headers: { 'x-request-id': 'change-42' } });
    expect(updated.status).toBe(200);
    expect(updated.headers.get('x-request-id')).toBe('change-42');
    const [event] = (await h.api.get('/api/v1/audit-events?action=source.updated')).body.items;
    expect(event).toMatchObject({
      requestId: 'change-42',
      clientAddress: '127.0.0.1',
      details: {
        changed: expect.arrayContaining(['timeoutMs', 'env']),
        before: { timeoutMs: 60_000, env: { MODE: '***' } },
        after: { timeoutMs: 20_000, env: { MODE: '***', TOKEN: '*** ${secret:CHAIN_1}', RAW: '***' } },
      },
    });
    expect(JSON.stringify(event)).not.toContain('sk-literal-credential');
    // A request id that is not a plain token is replaced by one of Toolplane's own.
    const odd = await h.api.request('GET', '/api/v1/sources', undefined, { headers: { 'x-request-id': 'a b' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await verify()).toMatchObject({ intact: true, events: 9 });
    const rows = await h.sql<{ request_id: string }>(`SELECT request_id FROM audit_events WHERE action = 'source.updated'`);
    expect(rows).toEqual([{ request_id: 'change-42' }]);
  });

  it('names an altered event, also when the attacker recomputed the hashes', async () => {
    const rows = await rowsOf();
    const target = rows[2]!;
    await h.sql(`UPDATE audit_events SET actor = 'someone else' WHERE id = $1`, [target.id]);
    expect((await verify()).firstProblem).toMatchObject({ seq: 3, id: target.id, problem: 'altered' });

    // Recompute this event's hash and every later one, as the attacker can (the algorithm is no
    // secret): every link holds again, but the signatures give it away.
    const chain = await h.sql<Row>(`SELECT * FROM audit_events ORDER BY seq`);
    let prevHash = chain[1]!.hash!;
    for (const row of chain.slice(2)) {
      const event = toEvent(row);
      const hash = chainHash(prevHash, event.seq, event);
      await h.sql(`UPDATE audit_events SET prev_hash = $2, hash = $3 WHERE id = $1`, [row.id, prevHash, hash]);
      prevHash = hash;
    }
    expect((await verify()).firstProblem).toMatchObject({ seq: 3, id: target.id, problem: 'bad signature' });
  });

  it('names a deleted event, and an event slipped in between two others', async () => {
    const fresh = await startHarness();
    try {
      for (let i = 0; i < 4; i++) await fresh.api.put(`/api/v1/secrets/S${i}`, { value: 'x' });
      const verifyFresh = async () => (await fresh.api.get('/api/v1/audit-events/verify')).body;
      const [, second] = await fresh.sql<{ id: string }>(`SELECT id FROM audit_events ORDER BY seq`);
      const saved = (await fresh.sql(`SELECT * FROM audit_events WHERE id = $1`, [second!.id]))[0];
      await fresh.sql(`DELETE FROM audit_events WHERE id = $1`, [second!.id]);
      expect(await verifyFresh()).toMatchObject({ intact: false, events: 1, head: { seq: 1 }, firstProblem: { seq: 3, problem: 'missing', detail: 'events 2–2 are missing' } });

      // Put it back as it was: intact again.
      await fresh.sql(
        `INSERT INTO audit_events SELECT * FROM jsonb_populate_record(NULL::audit_events, $1::jsonb)`,
        [JSON.stringify(saved)],
      );
      expect(await verifyFresh()).toMatchObject({ intact: true, events: 4 });

      // Renumber the tail and slip a forged event in at 3, linked to event 2.
      await fresh.sql(`UPDATE audit_events SET seq = seq + 1000 WHERE seq >= 3`);
      await fresh.sql(`UPDATE audit_events SET seq = seq - 999 WHERE seq >= 1000`);
      const [forgedId] = await fresh.sql<{ id: string }>(
        `INSERT INTO audit_events (id, occurred_at, actor, action, target_type, target_id, target_name, details, seq, prev_hash, hash, signature, key_id)
         SELECT gen_random_uuid(), occurred_at, 'intruder', 'secret.deleted', 'secret', 'S0', 'S0', '{}', 3, hash, hash, signature, key_id FROM audit_events WHERE seq = 2
         RETURNING id`,
      );
      expect((await verifyFresh()).firstProblem).toMatchObject({ seq: 3, id: forgedId!.id, problem: 'altered' });
    } finally {
      await fresh.close();
    }
  });

  it('seals events written before the chain existed when Toolplane starts', async () => {
    const fresh = await startHarness();
    try {
      await fresh.api.put('/api/v1/secrets/BEFORE', { value: 'x' });
      // As the migration leaves earlier events: numbered, not sealed.
      await fresh.sql(`UPDATE audit_events SET prev_hash = NULL, hash = NULL, signature = NULL, key_id = NULL`);
      expect((await fresh.api.get('/api/v1/audit-events/verify')).body.intact).toBe(false);
      const peer = await fresh.startPeer();
      expect((await peer.api.get('/api/v1/audit-events/verify')).body).toMatchObject({ intact: true, events: 1 });
    } finally {
      await fresh.close();
    }
  });
});
