import { InMemoryUserSecrets } from '../../../../secrets/testing/in-memory-user-secrets.js';
import { UserSecretCredentials } from '../../../../sources/application/user-secret-credentials.js';
import { ModeCredentials, type CredentialOutcome, type CredentialRequest } from '../../../../sources/domain/upstream-credentials.js';
import { CALLER, ExecuteToolHarness } from '../../../testing/execute-tool-harness.js';
import { aRoute, aTarget } from '../../../testing/routes.js';

const route = aRoute('jira__search');
const SHARED = { name: 'JIRA_URL', value: 'https://jira.example.com/shared-url' };

/** A per-user stdio source: a shared value and the caller's own token. */
function perUserTarget() {
  const target = aTarget(route, [SHARED]);
  return { ...target, env: { ...target.env, JIRA_TOKEN: 'Bearer ${user-secret:JIRA_TOKEN}' }, auth: { mode: 'user-secret' as const }, poolKey: target.sourceId };
}

function harnessWith(userSecrets: InMemoryUserSecrets, extra: ModeCredentials[] = []) {
  const harness = new ExecuteToolHarness({ modeCredentials: [new UserSecretCredentials(userSecrets), ...extra] });
  harness.addToCatalog(route);
  harness.targets.add(perUserTarget());
  return harness;
}

/** An oauth mode that renews once (a refresh), then asks for consent. */
class RenewingOAuth extends ModeCredentials {
  readonly mode = 'oauth' as const;
  readonly asked: string[] = [];
  forCall({ target, principal }: CredentialRequest): Promise<CredentialOutcome> {
    this.asked.push('forCall');
    return Promise.resolve({ kind: 'ready', target: { ...target, headers: { Authorization: 'Bearer old-access-token' }, secrets: [{ name: 'oauth', value: 'old-access-token' }], principalId: principal.id, poolKey: `${target.sourceId}#${principal.id}` } });
  }
  afterUnauthorized({ target, principal }: CredentialRequest): Promise<CredentialOutcome> {
    this.asked.push('afterUnauthorized');
    return Promise.resolve({ kind: 'ready', target: { ...target, headers: { Authorization: 'Bearer new-access-token' }, secrets: [{ name: 'oauth', value: 'new-access-token' }], principalId: principal.id, poolKey: `${target.sourceId}#${principal.id}` } });
  }
}

describe('AttachCredentialStage', () => {
  it("sends the caller's own value, in the caller's own pool, and scrubs it from what comes back", async () => {
    const harness = harnessWith(new InMemoryUserSecrets({ [CALLER.principalId]: { JIRA_TOKEN: 'caller-token-1234' }, other: { JIRA_TOKEN: 'other-token-5678' } }));
    harness.invoker.answers([{ type: 'text', text: 'I got caller-token-1234' }]);

    const { record } = await harness.call({ qualifiedName: 'jira__search' });

    const sent = harness.invoker.requests[0]!.target;
    expect(sent.env).toEqual({ JIRA_URL: SHARED.value, JIRA_TOKEN: 'Bearer caller-token-1234' });
    expect([sent.principalId, sent.poolKey]).toEqual([CALLER.principalId, `${route.source.id}#${CALLER.principalId}`]);
    expect(record.status).toBe('succeeded');
    expect(JSON.stringify(record.result)).not.toContain('caller-token-1234');
    expect(JSON.stringify(record)).not.toContain('other-token-5678');
  });

  it('refuses UPSTREAM_CREDENTIAL_REQUIRED naming the missing value, before anything is started or sent', async () => {
    const harness = harnessWith(new InMemoryUserSecrets({ other: { JIRA_TOKEN: 'other-token-5678' } }));

    const { record } = await harness.call({ qualifiedName: 'jira__search' });

    expect(record).toMatchObject({ status: 'rejected', error: { code: 'UPSTREAM_CREDENTIAL_REQUIRED', retryable: false, details: [{ path: 'missing', message: 'JIRA_TOKEN' }] } });
    expect(record.error?.message).toContain('${user-secret:JIRA_TOKEN}');
    expect(harness.invoker.requests).toHaveLength(0);
    expect(harness.timeline).not.toContain('started');
  });

  it('leaves a shared source as it is', async () => {
    const harness = new ExecuteToolHarness().withTool(route, [SHARED]);
    await harness.call({ qualifiedName: 'jira__search' });
    expect(harness.invoker.requests[0]!.target.principalId).toBeUndefined();
  });
});

describe('InvokeStage after a 401', () => {
  it('renews the credential once and retries with it; a second 401 asks for consent', async () => {
    const oauth = new RenewingOAuth();
    const harness = new ExecuteToolHarness({ modeCredentials: [oauth] });
    harness.addToCatalog(route);
    harness.targets.add({ ...aTarget(route), transport: 'streamable-http', url: 'https://jira.example.com/mcp', auth: { mode: 'oauth', oauth: {} } });
    harness.invoker.failWith('unauthorized', 'HTTP 401 from jira').answers([{ type: 'text', text: 'ok' }]);

    const { record } = await harness.call({ qualifiedName: 'jira__search' });

    expect(record.status).toBe('succeeded');
    expect(harness.invoker.requests.map((r) => r.target.headers.Authorization)).toEqual(['Bearer old-access-token', 'Bearer new-access-token']);
    expect(oauth.asked).toEqual(['forCall', 'afterUnauthorized']);

    harness.invoker.failWith('unauthorized', 'HTTP 401').failWith('unauthorized', 'HTTP 401');
    const again = await harness.call({ qualifiedName: 'jira__search' });
    expect(again.record).toMatchObject({ status: 'rejected', error: { code: 'UPSTREAM_CONSENT_REQUIRED' } });
    expect(harness.circuits.forSource(route.source.id, route.source.circuitBreaker).snapshot(harness.clock.now().getTime())).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });

  it("says a refused user secret is the caller's to replace, without trying again", async () => {
    const harness = harnessWith(new InMemoryUserSecrets({ [CALLER.principalId]: { JIRA_TOKEN: 'expired-token' } }));
    harness.invoker.failWith('unauthorized', 'HTTP 401 from jira');

    const { record } = await harness.call({ qualifiedName: 'jira__search' });

    expect(record).toMatchObject({ status: 'rejected', error: { code: 'UPSTREAM_CREDENTIAL_REQUIRED', details: [{ path: 'missing', message: 'JIRA_TOKEN' }] } });
    expect(harness.invoker.requests).toHaveLength(1);
  });

  it('keeps a shared source refused upstream an upstream error', async () => {
    const harness = new ExecuteToolHarness().withTool(route);
    harness.invoker.failWith('unauthorized', 'HTTP 401 from jira');
    const { record } = await harness.call({ qualifiedName: 'jira__search' });
    expect(record).toMatchObject({ status: 'upstream_error', error: { code: 'UPSTREAM_PROTOCOL_ERROR' } });
  });
});
