import { ApiError } from '../errors.js';
import { runCli } from '../testing/run-cli.js';

const gone = () => ({ status: 204 });

describe('rm commands', () => {
  it.each([
    [['groups', 'rm', 'support'], '/api/v1/groups/support', 'removed group support'],
    [['interceptors', 'rm', 'no-etc'], '/api/v1/interceptors/no-etc', 'removed interceptor no-etc'],
    [['secrets', 'rm', 'GITHUB_TOKEN'], '/api/v1/secrets/GITHUB_TOKEN', 'removed secret GITHUB_TOKEN'],
    [['secrets', 'mine', 'rm', 'JIRA_TOKEN'], '/api/v1/me/secrets/JIRA_TOKEN', 'removed your secret JIRA_TOKEN'],
  ])('%j sends one DELETE of %s and says what went', async (args, path, said) => {
    const result = await runCli(args, { [`DELETE ${path}`]: gone });
    expect(result.error).toBeUndefined();
    expect(result.seen).toEqual([expect.objectContaining({ method: 'DELETE', path, authorization: 'Bearer tp_test_key' })]);
    expect(result.stderr).toContain(said);
    expect(result.stdout).toBe('');
  });

  it('prints { removed } with --json, escapes the name into the path, and passes the API\'s refusal on', async () => {
    const json = await runCli(['--json', 'groups', 'rm', 'a b'], { 'DELETE /api/v1/groups/a%20b': gone });
    expect(JSON.parse(json.stdout)).toEqual({ removed: 'a b' });
    const refused = await runCli(['secrets', 'rm', 'NOPE'], {
      'DELETE /api/v1/secrets/NOPE': () => ({ status: 404, body: { error: { code: 'SECRET_NOT_FOUND', message: 'No secret NOPE.', details: [] } } }),
    });
    expect(refused.error).toBeInstanceOf(ApiError);
    expect(refused.error).toMatchObject({ code: 'SECRET_NOT_FOUND', status: 404 });
    expect(refused.stderr).not.toContain('removed');
  });
});
