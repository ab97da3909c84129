import { aRemoteSource, aSource } from '../../testing/builders.js';
import { aListing } from '../../testing/fake-upstream-discovery.js';
import { sourcesFixture } from '../../testing/sources-fixture.js';
import { CredentialArrivals } from './credential-arrivals.js';

const ALICE = { id: 'key-alice', name: 'alice' };

/** A stdio source whose env takes its discovery principal's own token. */
function perUserSource() {
  return aSource({ name: 'jira', env: { JIRA_TOKEN: '${user-secret:JIRA_TOKEN}', REGION: 'eu' }, upstreamAuth: { mode: 'user-secret' }, discoveryPrincipal: ALICE });
}

describe('per-user discovery', () => {
  it('sends nothing while the discovery principal lacks its value: the source awaits its connection, no failure counted', async () => {
    const source = perUserSource();
    const f = sourcesFixture({ sources: [source] });

    const outcome = await f.refresher.refresh(source.id);

    expect(outcome).toMatchObject({ ok: false, awaiting: { code: 'UPSTREAM_CREDENTIAL_REQUIRED', missing: ['JIRA_TOKEN'] } });
    expect(f.discovery.discoveries).toHaveLength(0);
    expect(f.sources.stored(source.id)).toMatchObject({ health: 'awaiting_connection', consecutiveFailures: 0, lastError: expect.stringContaining('${user-secret:JIRA_TOKEN}') });
  });

  it("discovers with the discovery principal's own value, in that principal's pool, once it stored it", async () => {
    const source = perUserSource();
    const f = sourcesFixture({ sources: [source] });
    f.discovery.answer('jira', aListing(['search']));
    await f.refresher.refresh(source.id);
    await f.userSecrets.put(ALICE.id, 'JIRA_TOKEN', 'alice-jira-token', f.clock.now());

    const outcomes = await new CredentialArrivals(f.sources, f.refresher).arrived(ALICE.id);

    expect([...outcomes.values()]).toEqual([{ ok: true, changes: expect.objectContaining({ added: 1 }) }]);
    const { target } = f.discovery.discoveries[0]!;
    expect(target.env).toEqual({ JIRA_TOKEN: 'alice-jira-token', REGION: 'eu' });
    expect([target.principalId, target.poolKey]).toEqual([ALICE.id, `${source.id}#${ALICE.id}`]);
    expect(target.secrets).toContainEqual({ name: 'user-secret JIRA_TOKEN', value: 'alice-jira-token' });
    expect(f.sources.stored(source.id)).toMatchObject({ health: 'healthy' });
  });

  it('refreshes only the sources that wait for that principal', async () => {
    const waiting = perUserSource();
    const another = aRemoteSource({ name: 'other', headers: { Authorization: '${user-secret:T}' }, upstreamAuth: { mode: 'user-secret' }, discoveryPrincipal: { id: 'key-bob', name: 'bob' } });
    const shared = aSource({ name: 'shared' });
    const f = sourcesFixture({ sources: [waiting, another, shared] });

    const outcomes = await new CredentialArrivals(f.sources, f.refresher).arrived(ALICE.id);

    expect([...outcomes.keys()]).toEqual([waiting.id]);
  });

  it('leaves a shared source as it was: its target has no principal', async () => {
    const source = aSource();
    const f = sourcesFixture({ sources: [source] });
    await f.refresher.refresh(source.id);
    expect(f.discovery.discoveries[0]?.target).toMatchObject({ poolKey: source.id });
    expect(f.discovery.discoveries[0]?.target.principalId).toBeUndefined();
  });
});
