import { spawn } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { makeApi, startHarness, type Api, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, MEMORY_DIR, ROOT } from '../helpers/upstreams.js';

const HOOK_KEY = 'approvals-hook-signing-key';
const FINAL = (status: string) => status !== 'working' && status !== 'pending_approval';

/**
 * Calls held for a person's approval, end to end on real PostgreSQL and real upstreams
 * (server-everything; server-memory, whose graph file shows whether a call reached it): held by an
 * approval interceptor on REST invoke, decided over /api/v1/approvals by another key, run again
 * through the one pipeline with the decision on its record.
 */
describe('approvals', () => {
  let h: Harness;
  let dir: string;
  let memoryFile: string;
  let hook: Server;
  const notified: { headers: IncomingMessage['headers']; body: string }[] = [];
  const keys: Record<string, { id: string; key: string; api: Api }> = {};

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolplane-approvals-'));
    memoryFile = join(dir, 'memory.json');
    h = await startHarness({ TOOLPLANE_APPROVAL_SWEEP_MS: '200', TOOLPLANE_SANDBOX: 'off', TOOLPLANE_PUBLIC_URL: 'https://toolplane.example.com' });
    for (const [name, spec] of [
      ['ev', { command: 'node', args: [EVERYTHING, 'stdio', SUITE_TAG] }],
      ['memory', { command: 'node', args: [`${MEMORY_DIR}/dist/index.js`, SUITE_TAG], env: { MEMORY_FILE_PATH: memoryFile } }],
    ] as const) {
      const created = await h.api.post('/api/v1/sources', { name, transport: 'stdio', lifecycle: 'singleton', refreshIntervalSeconds: 0, ...spec });
      expect([created.status, created.body.health]).toEqual([201, 'healthy']);
    }
    for (const [name, role] of [
      ['caller', 'agent'],
      ['ops', 'reviewer'],
      ['qa', 'reviewer'],
      ['boss', 'admin'],
    ] as const) {
      const created = await h.api.post('/api/v1/api-keys', { name, role });
      expect(created.status).toBe(201);
      keys[name] = { id: created.body.id, key: created.body.key, api: makeApi(h.url, created.body.key) };
    }
    hook = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        notified.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    expect((await h.api.put('/api/v1/secrets/APPROVALS_HOOK_KEY', { value: HOOK_KEY })).status).toBeLessThan(300);
    // Calls of ev__echo and memory__create_entities wait for an admin or the key named "ops"; never for their own caller.
    const created = await h.api.post('/api/v1/interceptors', {
      name: 'four-eyes',
      kind: 'approval',
      description: 'Writes need a second pair of eyes.',
      scope: { tools: ['ev__echo', 'memory__create_entities'] },
      approvers: { roles: ['admin'], principals: ['ops'] },
      notify: { url: `http://127.0.0.1:${(hook.address() as { port: number }).port}/slack`, signingSecret: 'APPROVALS_HOOK_KEY' },
      timeoutMs: 600_000,
    });
    expect([created.status, created.body]).toEqual([201, expect.objectContaining({ kind: 'approval', phase: 'pre', timeoutMs: 600_000 })]);
  }, 120_000);

  afterAll(async () => {
    hook?.closeAllConnections();
    await new Promise((resolve) => hook?.close(resolve));
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
    await expectNoSuiteProcesses();
  });

  /** Invokes on REST as `who`; answers the held call's execution id and its approval (as an admin reads it). */
  const hold = async (who: Api, tool: string, args: Record<string, unknown>) => {
    const answer = await who.post(`/api/v1/tools/${tool}/invoke`, { arguments: args });
    expect([answer.status, answer.body.status]).toEqual([202, 'pending_approval']);
    const executionId = answer.body.id as string;
    const [approval] = await h.sql<{ id: string }>('SELECT id FROM approvals WHERE execution_id = $1', [executionId]);
    expect(approval).toBeDefined();
    return { answer, executionId, approvalId: approval!.id };
  };
  /** The execution once it has its final record. */
  const final = async (id: string, who: Api = h.api) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const got = await who.get(`/api/v1/executions/${id}`);
      if (got.status === 200 && FINAL(got.body.status)) return got.body;
      if (Date.now() > deadline) throw new Error(`execution ${id} has no final record: ${JSON.stringify(got.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const approvalRun = (record: any) => record.interceptors.find((run: any) => run.name === 'four-eyes');

  it('holds a call, and runs it once another key approves it: its record shows the approval with approver and comment', async () => {
    const { answer, executionId, approvalId } = await hold(keys.caller!.api, 'ev__echo', { message: 'deploy to production' });
    // Answered as waiting; nothing recorded as the call's outcome while it waits.
    expect(answer.headers.get('location')).toBe(`/api/v1/executions/${executionId}`);
    expect(await h.sql('SELECT id FROM executions WHERE id = $1', [executionId])).toEqual([]);

    const listed = await keys.ops!.api.get('/api/v1/approvals?status=pending');
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((item: any) => item.id)).toContain(approvalId);
    const shown = await keys.ops!.api.get(`/api/v1/approvals/${approvalId}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      status: 'pending',
      executionId,
      interceptor: 'four-eyes',
      message: 'Writes need a second pair of eyes.',
      tool: { qualifiedName: 'ev__echo', source: 'ev' },
      caller: { principalId: keys.caller!.id, principalName: 'caller' },
      arguments: { message: 'deploy to production' },
    });
    expect(Array.isArray(shown.body.callerRecentExecutions)).toBe(true);

    const approved = await keys.ops!.api.post(`/api/v1/approvals/${approvalId}/approve`, { comment: 'Ticket OPS-42.' });
    expect([approved.status, approved.body.status, approved.body.decidedBy]).toEqual([200, 'approved', { id: keys.ops!.id, name: 'ops' }]);

    const record = await final(executionId, keys.caller!.api);
    expect(record).toMatchObject({ status: 'succeeded', result: { content: [{ type: 'text', text: 'Echo: deploy to production' }] } });
    expect(approvalRun(record)).toMatchObject({
      decision: 'allow',
      approval: { id: approvalId, decision: 'approved', decidedBy: { id: keys.ops!.id, name: 'ops' }, comment: 'Ticket OPS-42.' },
    });

    // The notification: Slack-compatible, naming the tool and the caller, linking to the console, signed with the stored secret.
    const sent = notified.find((n) => n.headers['toolplane-approval'] === approvalId);
    expect(sent).toBeDefined();
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(sent!.headers['toolplane-signature']))!;
    expect(v1).toBe(createHmac('sha256', HOOK_KEY).update(`${t}.${sent!.body}`).digest('hex'));
    const message = JSON.parse(sent!.body);
    expect(message.text).toContain('ev__echo');
    expect(message.text).toContain('caller');
    expect(JSON.stringify(message.blocks)).toContain(`https://toolplane.example.com/console/approvals/${approvalId}`);
    expect(sent!.body).not.toContain(HOOK_KEY);
  });

  it('refuses the call’s own caller (SELF_APPROVAL_FORBIDDEN) even when eligible, and a key that is no approver', async () => {
    const own = await hold(keys.boss!.api, 'ev__echo', { message: 'mine' });
    const self = await keys.boss!.api.post(`/api/v1/approvals/${own.approvalId}/approve`, {});
    expect([self.status, self.body.error.code]).toEqual([403, 'SELF_APPROVAL_FORBIDDEN']);
    // An admin still lists it: admins see every approval.
    expect((await keys.boss!.api.get(`/api/v1/approvals?status=pending`)).body.items.map((item: any) => item.id)).toContain(own.approvalId);

    const theirs = await hold(keys.caller!.api, 'ev__echo', { message: 'theirs' });
    const stranger = await keys.qa!.api.post(`/api/v1/approvals/${theirs.approvalId}/approve`, {});
    expect([stranger.status, stranger.body.error.code]).toEqual([403, 'APPROVAL_NOT_ALLOWED']);
    expect((await keys.qa!.api.get(`/api/v1/approvals/${theirs.approvalId}`)).status).toBe(404);
    expect((await keys.qa!.api.get('/api/v1/approvals')).body.items).toEqual([]);
    // An agent key has no approvals:decide at all.
    expect((await keys.caller!.api.post(`/api/v1/approvals/${theirs.approvalId}/approve`, {})).status).toBe(403);
    // Still pending after every refusal.
    expect((await h.api.get(`/api/v1/approvals/${theirs.approvalId}`)).body.status).toBe('pending');
    expect((await h.api.get(`/api/v1/approvals/${own.approvalId}`)).body.status).toBe('pending');
    const tooLong = await keys.ops!.api.post(`/api/v1/approvals/${theirs.approvalId}/deny`, { comment: 'x'.repeat(2001) });
    expect([tooLong.status, tooLong.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('denies a call: rejected APPROVAL_DENIED, and nothing reaches the upstream', async () => {
    const entity = { name: 'denied-entity', entityType: 'test', observations: ['must never be written'] };
    const { executionId, approvalId } = await hold(keys.caller!.api, 'memory__create_entities', { entities: [entity] });
    const denied = await keys.ops!.api.post(`/api/v1/approvals/${approvalId}/deny`, { comment: 'Not today.' });
    expect([denied.status, denied.body.status]).toEqual([200, 'denied']);
    const record = await final(executionId);
    expect(record).toMatchObject({ status: 'rejected', attempts: 0, error: { code: 'APPROVAL_DENIED' } });
    expect(record.error.message).toContain('Not today.');
    expect(approvalRun(record)).toMatchObject({ decision: 'deny', approval: { decision: 'denied', decidedBy: { name: 'ops' }, comment: 'Not today.' } });
    // The memory server never saw it: its graph has no such entity (and its file, none at all).
    const graph = await h.api.post('/api/v1/tools/memory__read_graph/invoke', { arguments: {} });
    expect(graph.status).toBe(200);
    expect(JSON.stringify(graph.body.result)).not.toContain('denied-entity');
    expect(existsSync(memoryFile) ? readFileSync(memoryFile, 'utf8') : '').not.toContain('denied-entity');
    // Deciding again: it is decided.
    const again = await keys.boss!.api.post(`/api/v1/approvals/${approvalId}/approve`, {});
    expect([again.status, again.body.error.code]).toEqual([409, 'APPROVAL_DECIDED']);

    // The same call approved does reach it.
    const written = await hold(keys.caller!.api, 'memory__create_entities', { entities: [{ ...entity, name: 'approved-entity' }] });
    expect((await keys.boss!.api.post(`/api/v1/approvals/${written.approvalId}/approve`, {})).status).toBe(200);
    expect((await final(written.executionId)).status).toBe('succeeded');
    expect(readFileSync(memoryFile, 'utf8')).toContain('approved-entity');
  });

  it('expires an approval nobody decided: the call is refused APPROVAL_TIMED_OUT', async () => {
    const quick = await h.api.post('/api/v1/interceptors', { name: 'quick', kind: 'approval', scope: { tools: ['ev__get-sum'] }, approvers: { roles: ['admin'] }, timeoutMs: 1000 });
    expect(quick.status).toBe(201);
    try {
      const { executionId, approvalId } = await hold(keys.caller!.api, 'ev__get-sum', { a: 1, b: 2 });
      const record = await final(executionId);
      expect(record).toMatchObject({ status: 'rejected', attempts: 0, error: { code: 'APPROVAL_TIMED_OUT' } });
      expect(record.interceptors.find((run: any) => run.name === 'quick')).toMatchObject({ decision: 'deny', approval: { id: approvalId, decision: 'expired' } });
      expect((await h.api.get(`/api/v1/approvals/${approvalId}`)).body.status).toBe('expired');
      const late = await keys.boss!.api.post(`/api/v1/approvals/${approvalId}/approve`, {});
      expect([late.status, late.body.error.code]).toEqual([409, 'APPROVAL_DECIDED']);
    } finally {
      await h.api.delete('/api/v1/interceptors/quick');
    }
  });

  it('binds the decision to the arguments: an approval of other arguments than the call has runs nothing (APPROVAL_MISMATCH)', async () => {
    const { executionId, approvalId } = await hold(keys.caller!.api, 'ev__echo', { message: 'rm -rf /' });
    // What the approver is shown, and the hash the decision binds, replaced by those of a harmless call.
    const harmless = { message: 'hello' };
    const hash = createHash('sha256').update(JSON.stringify(harmless)).digest('hex');
    await h.sql('UPDATE approvals SET arguments = $2, arguments_hash = $3 WHERE id = $1', [approvalId, JSON.stringify(harmless), hash]);
    expect((await keys.ops!.api.get(`/api/v1/approvals/${approvalId}`)).body.arguments).toEqual(harmless);
    expect((await keys.ops!.api.post(`/api/v1/approvals/${approvalId}/approve`, {})).status).toBe(200);
    const record = await final(executionId);
    expect(record).toMatchObject({ status: 'rejected', attempts: 0, error: { code: 'APPROVAL_MISMATCH' } });
    expect(record.result).toBeNull();
  });

  it('lets one of two racing approvers win; the other is told it is decided', async () => {
    const { executionId, approvalId } = await hold(keys.caller!.api, 'ev__echo', { message: 'race' });
    const answers = await Promise.all([
      keys.ops!.api.post(`/api/v1/approvals/${approvalId}/approve`, { comment: 'ops' }),
      keys.boss!.api.post(`/api/v1/approvals/${approvalId}/deny`, { comment: 'boss' }),
      h.api.post(`/api/v1/approvals/${approvalId}/approve`, { comment: 'admin' }),
    ]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 409, 409]);
    const winner = answers.find((answer) => answer.status === 200)!.body;
    for (const loser of answers.filter((answer) => answer.status === 409)) expect(loser.body.error.code).toBe('APPROVAL_DECIDED');
    const record = await final(executionId);
    expect(approvalRun(record).approval).toMatchObject({ decision: winner.status, comment: winner.comment });
    const events = (await h.api.get(`/api/v1/audit-events?targetType=approval&limit=200`)).body.items.filter((event: any) => event.targetId === approvalId);
    expect(events.map((event: any) => event.action).sort()).toEqual([`approval.${winner.status}`, 'approval.requested'].sort());
  });

  it('runs a decided call that the deciding process never ran again (it stopped in between), once, from any process', async () => {
    const { executionId, approvalId } = await hold(keys.caller!.api, 'ev__echo', { message: 'left behind' });
    // As if a process committed the decision and stopped before it resumed the call.
    await h.sql(`UPDATE approvals SET status = 'approved', decided_at = now() - interval '2 minutes', decided_by = $2::jsonb, comment = 'ok' WHERE id = $1`, [
      approvalId,
      JSON.stringify({ id: keys.ops!.id, name: 'ops' }),
    ]);
    const record = await final(executionId);
    expect(record).toMatchObject({ status: 'succeeded', result: { content: [{ type: 'text', text: 'Echo: left behind' }] } });
    expect(approvalRun(record).approval).toMatchObject({ decision: 'approved', decidedBy: { name: 'ops' }, comment: 'ok' });
    // Resumed once: one record, and the sweeps since found nothing left to resume.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await h.sql('SELECT id FROM executions WHERE id = $1', [executionId])).toHaveLength(1);
    expect(await h.sql(`SELECT status FROM execution_tasks WHERE id = $1`, [executionId])).toEqual([{ status: 'working' }]);
  });

  it('keeps the exact input sealed in the database, never in plaintext', async () => {
    const marker = `confidential-${Date.now()}`;
    const { approvalId } = await hold(keys.caller!.api, 'ev__echo', { message: marker });
    const [row] = await h.sql<{ sealed: string; input: Record<string, unknown> }>('SELECT sealed_input::text AS sealed, sealed_input AS input FROM approvals WHERE id = $1', [approvalId]);
    expect(Object.keys(row!.input).sort()).toEqual(['data', 'iv', 'keyId', 'tag']);
    expect(row!.sealed).not.toContain(marker);
    expect(row!.sealed).not.toContain(Buffer.from(marker).toString('base64'));
    expect(row!.sealed).not.toContain('ev__echo');
    // Never in an answer either.
    expect(JSON.stringify((await h.api.get(`/api/v1/approvals/${approvalId}`)).body)).not.toMatch(/sealed|keyId|"iv"/i);
  });

  it('lists, shows and decides held calls from the CLI', async () => {
    const { executionId, approvalId } = await hold(keys.caller!.api, 'ev__echo', { message: 'from the cli' });
    const cli = (...args: string[]) => runCli(dir, h.url, keys.ops!.key, args);
    const listed = await cli('approvals', 'ls');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${approvalId}\\s+ev__echo\\s+caller\\s+pending`));
    const shown = await cli('approvals', 'get', approvalId);
    expect([shown.code, shown.stdout]).toEqual([0, expect.stringContaining('from the cli')]);
    const approved = await cli('approvals', 'approve', approvalId, '--comment', 'From the terminal.');
    expect([approved.code, approved.stderr + approved.stdout]).toEqual([0, expect.stringContaining('approved')]);
    expect(approvalRun(await final(executionId)).approval).toMatchObject({ decision: 'approved', comment: 'From the terminal.' });
    const again = await cli('approvals', 'deny', approvalId);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('APPROVAL_DECIDED');
  });

  it('writes the audit events of each approval, with approver and comment, and counts decisions in the metrics', async () => {
    const events = (await h.api.get('/api/v1/audit-events?targetType=approval&limit=200')).body.items as { action: string; actor: string; details: Record<string, unknown> }[];
    const actions = new Set(events.map((event) => event.action));
    for (const action of ['approval.requested', 'approval.approved', 'approval.denied', 'approval.expired']) expect(actions).toContain(action);
    expect(events.find((event) => event.action === 'approval.approved' && event.details.comment === 'Ticket OPS-42.')).toMatchObject({ actor: keys.ops!.id, details: { approver: 'ops', interceptor: 'four-eyes' } });
    expect(events.find((event) => event.action === 'approval.denied' && event.details.comment === 'Not today.')).toMatchObject({ actor: keys.ops!.id });
    expect(events.find((event) => event.action === 'approval.expired')).toMatchObject({ actor: 'toolplane:approvals' });
    expect((await h.api.get('/api/v1/audit-events/verify')).body).toMatchObject({ intact: true });

    const metrics = (await h.api.request('GET', '/metrics')).body as string;
    expect(metrics).toMatch(/toolplane_approvals_total\{decision="approved"\} [1-9]/);
    expect(metrics).toMatch(/toolplane_approvals_total\{decision="denied"\} [1-9]/);
    expect(metrics).toMatch(/toolplane_approvals_total\{decision="expired"\} [1-9]/);
    expect(metrics).toMatch(/toolplane_approval_decision_seconds_count\{decision="approved"\} [1-9]/);
  });
});

describe('approval interceptors as configuration and in previews', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    expect((await h.api.put('/api/v1/secrets/NOTIFY_KEY', { value: 'notify-signing-value' })).status).toBeLessThan(300);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  const apply = (document: unknown, query = '') => h.api.request('POST', `/api/v1/config/apply${query}`, undefined, { raw: stringify(document), headers: { 'content-type': 'application/yaml' } });

  it('applies an approval from a file, exports it as declared, and applying the export changes nothing', async () => {
    const approval = {
      name: 'deletes',
      kind: 'approval',
      scope: { tools: ['*__delete_*'] },
      timeoutMs: 86_400_000,
      approvers: { roles: ['admin', 'reviewer'], principals: ['release-manager'] },
      when: { annotations: { destructiveHint: true }, arguments: [{ argument: 'path', pathUnder: '/prod' }] },
      notify: { url: 'https://hooks.example.com/services/T0/B0', signingSecret: 'NOTIFY_KEY' },
    };
    const applied = await apply({ sources: [], interceptors: [approval] });
    expect([applied.status, applied.body.summary, applied.body.error]).toEqual([200, expect.objectContaining({ create: 1 }), undefined]);
    const exported = parse((await h.api.request('GET', '/api/v1/config/export', undefined, { headers: { accept: 'application/yaml' } })).body as string);
    expect(exported.interceptors).toEqual([approval]);
    expect((await apply(exported)).body.summary).toMatchObject({ create: 0, update: 0 });

    const bad = await apply({ sources: [], interceptors: [{ ...approval, approvers: {}, notify: { url: 'https://hooks.example.com/x', signingSecret: 'NOT_STORED' }, timeoutMs: 8 * 86_400_000 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['interceptors[0].approvers', 'interceptors[0].notify.signingSecret', 'interceptors[0].timeoutMs']);
  });

  it('previews an approval on a sample call: it would hold it, or let it go when its conditions do not hold', async () => {
    const interceptor = { name: 'try-me', kind: 'approval', approvers: { roles: ['admin'] }, when: { arguments: [{ argument: 'amount', range: { max: 100 } }] } };
    const held = await h.api.post('/api/v1/interceptors/preview', { interceptor, call: { tool: 'pay__transfer', arguments: { amount: 5000 } } });
    expect([held.status, held.body.decision, held.body.refused]).toEqual([200, 'hold', false]);
    const allowed = await h.api.post('/api/v1/interceptors/preview', { interceptor, call: { tool: 'pay__transfer', arguments: { amount: 5 } } });
    expect([allowed.status, allowed.body.decision]).toEqual([200, 'allow']);
  });
});

/** The built CLI in its own process, with the server and key from the environment. */
function runCli(home: string, url: string, key: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist/src/cli/main.js'), ...args], {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1', TOOLPLANE_URL: url, TOOLPLANE_API_KEY: key },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}
