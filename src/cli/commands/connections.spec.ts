import { CommanderError } from 'commander';
import { ApiError, UsageError } from '../errors.js';
import { runCli as run } from '../testing/run-cli.js';

const link = { authorizationUrl: 'http://127.0.0.1:7000/authorize?client_id=c&state=s&code_challenge=x', expiresAt: '2026-11-28T16:10:00.000Z' };

describe('toolplane connect', () => {
  it('asks for the JSON form of the source\'s connect link and prints the link alone on stdout', async () => {
    const result = await run(['connect', 'github'], { 'GET /api/v1/sources/github/connect': () => ({ status: 200, body: link }) });
    expect(result.error).toBeUndefined();
    expect(result.seen).toEqual([expect.objectContaining({ method: 'GET', path: '/api/v1/sources/github/connect', accept: 'application/json', authorization: 'Bearer tp_test_key' })]);
    expect(result.stdout).toBe(`${link.authorizationUrl}\n`);
    expect(result.stderr).toContain('open this link in a browser to connect github (valid until 2026-11-28 16:10:00 UTC)');
  });

  it('prints the API\'s answer with --json, and the API\'s refusal as an error', async () => {
    const json = await run(['--json', 'connect', 'github'], { 'GET /api/v1/sources/github/connect': () => ({ status: 200, body: link }) });
    expect(JSON.parse(json.stdout)).toEqual(link);
    const refused = await run(['connect', 'plain'], { 'GET /api/v1/sources/plain/connect': () => ({ status: 400, body: { error: { code: 'SOURCE_NOT_OAUTH', message: 'plain does not sign in per user.', details: [] } } }) });
    expect(refused.error).toBeInstanceOf(ApiError);
    expect(refused.error).toMatchObject({ code: 'SOURCE_NOT_OAUTH', status: 400 });
    expect(refused.stdout).toBe('');
  });
});

describe('toolplane connections', () => {
  const mine = {
    items: [
      { source: 'github', status: 'connected', scopes: ['repo', 'read:user'], expiresAt: '2026-11-28T17:00:00.000Z', connectedAt: '2026-11-28T15:00:00.000Z', refreshedAt: null },
      { source: 'jira', status: 'not_connected', scopes: [], expiresAt: null, connectedAt: null, refreshedAt: null },
    ],
  };

  it('ls lists the caller\'s connections and the sources still waiting for one', async () => {
    const result = await run(['connections', 'ls'], { 'GET /api/v1/me/connections': () => ({ status: 200, body: mine }) });
    expect(result.error).toBeUndefined();
    const [header, github, jira] = result.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^SOURCE +STATUS +SCOPES +EXPIRES +CONNECTED$/);
    expect(github).toMatch(/^github +connected +repo read:user +2026-11-28 17:00:00 +2026-11-28 15:00:00$/);
    expect(jira).toMatch(/^jira +not_connected +- +- +-$/);
  });

  it('ls --source lists every principal\'s connection to that source (the admin view)', async () => {
    const result = await run(['connections', 'ls', '--source', 'github'], {
      'GET /api/v1/sources/github/connections': () => ({ status: 200, body: { items: [{ principalId: 'key-1', principalName: 'alice', status: 'connected', scopes: ['repo'], expiresAt: null, connectedAt: '2026-11-28T15:00:00.000Z' }] } }),
    });
    expect(result.error).toBeUndefined();
    expect(result.seen.map((s) => s.path)).toEqual(['/api/v1/sources/github/connections']);
    const [header, row] = result.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^PRINCIPAL +NAME +STATUS +SCOPES +EXPIRES +CONNECTED$/);
    expect(row).toMatch(/^key-1 +alice +connected +repo +- +2026-11-28 15:00:00$/);
    const empty = await run(['connections', 'ls', '--source', 'jira'], { 'GET /api/v1/sources/jira/connections': () => ({ status: 200, body: { items: [] } }) });
    expect(empty.stderr).toContain('nobody is connected to jira');
  });

  it('rm disconnects the caller from one source', async () => {
    const result = await run(['connections', 'rm', 'github'], { 'DELETE /api/v1/me/connections/github': () => ({ status: 204 }) });
    expect(result.error).toBeUndefined();
    expect(result.seen).toEqual([expect.objectContaining({ method: 'DELETE', path: '/api/v1/me/connections/github' })]);
    expect(result.stderr).toContain('disconnected from github');
    const missing = await run(['connections', 'rm', 'nowhere'], {});
    expect(missing.error).toMatchObject({ status: 404 });
  });

  it('revoke drops one principal\'s connection to a source, and needs --source', async () => {
    const result = await run(['connections', 'revoke', '--source', 'github', 'key/1'], { 'DELETE /api/v1/sources/github/connections/key%2F1': () => ({ status: 204 }) });
    expect(result.error).toBeUndefined();
    expect(result.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['DELETE /api/v1/sources/github/connections/key%2F1']);
    expect(result.stderr).toContain('revoked key/1\'s connection to github');
    const without = await run(['connections', 'revoke', 'key-1'], {});
    expect(without.error).toBeInstanceOf(CommanderError);
    expect(without.stderr).toContain('--source <name>');
    expect(without.seen).toEqual([]);
  });
});

describe('toolplane secrets mine', () => {
  const stored = { name: 'JIRA_TOKEN', createdAt: '2026-11-28T15:00:00.000Z', updatedAt: '2026-11-28T15:00:00.000Z' };

  it('put sends the value read from standard input, and never shows it', async () => {
    const result = await run(['secrets', 'mine', 'put', 'JIRA_TOKEN'], { 'PUT /api/v1/me/secrets/JIRA_TOKEN': () => ({ status: 201, body: stored }) }, 'v4lue-from-stdin\n');
    expect(result.error).toBeUndefined();
    expect(result.seen).toEqual([expect.objectContaining({ method: 'PUT', path: '/api/v1/me/secrets/JIRA_TOKEN', body: { value: 'v4lue-from-stdin' } })]);
    expect(result.stderr).toContain('stored your secret JIRA_TOKEN');
    expect(result.stdout + result.stderr).not.toContain('v4lue');
    const replaced = await run(['secrets', 'mine', 'put', 'JIRA_TOKEN'], { 'PUT /api/v1/me/secrets/JIRA_TOKEN': () => ({ status: 200, body: stored }) }, 'another');
    expect(replaced.stderr).toContain('replaced your secret JIRA_TOKEN');
  });

  it('put takes no value on the command line, and refuses an empty one without asking the API', async () => {
    const inline = await run(['secrets', 'mine', 'put', 'JIRA_TOKEN', '--value', 'v'], {}, '');
    expect(inline.error).toBeInstanceOf(CommanderError);
    expect(inline.stderr).toContain("unknown option '--value'");
    const empty = await run(['secrets', 'mine', 'put', 'JIRA_TOKEN'], {}, '');
    expect(empty.error).toBeInstanceOf(UsageError);
    expect(inline.seen.concat(empty.seen)).toEqual([]);
  });

  it('ls lists the names only; rm removes one', async () => {
    const list = await run(['secrets', 'mine', 'ls'], { 'GET /api/v1/me/secrets': () => ({ status: 200, body: { items: [stored] } }) });
    const [header, row] = list.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^NAME +CREATED +UPDATED$/);
    expect(row).toMatch(/^JIRA_TOKEN +2026-11-28 15:00:00 +2026-11-28 15:00:00$/);
    const removed = await run(['secrets', 'mine', 'rm', 'JIRA_TOKEN'], { 'DELETE /api/v1/me/secrets/JIRA_TOKEN': () => ({ status: 204 }) });
    expect(removed.error).toBeUndefined();
    expect(removed.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['DELETE /api/v1/me/secrets/JIRA_TOKEN']);
    expect(removed.stderr).toContain('removed your secret JIRA_TOKEN');
  });
});
