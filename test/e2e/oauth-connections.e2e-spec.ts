import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AppModule } from '../../src/app.module.js';
import { loadConfig } from '../../src/config/app-config.js';
import { OAuthModeCredentials } from '../../src/modules/connections/application/oauth-mode-credentials.js';
import type { CredentialOutcome } from '../../src/modules/sources/domain/upstream-credentials.js';
import type { UpstreamTarget } from '../../src/modules/sources/domain/upstream.js';
import type { Principal } from '../../src/shared/principal/principal.js';
import { consent, registerOAuthSource, startOAuthUpstream, type OAuthUpstream } from '../helpers/oauth-upstream.js';
import { makeApi, startHarness, type Api, type Harness } from '../helpers/toolplane-harness.js';
import { freePort } from '../helpers/upstreams.js';

/**
 * Per-user OAuth connections end to end: a Toolplane process (REST: connect, callback, tickets,
 * connections), the OAuth fixture (an authorization server and the MCP server it protects), and the
 * `oauth` ModeCredentials as the call pipeline asks it, in an application built in this process on
 * the same database; the credential it answers is used for real calls to the fixture's MCP server.
 */
describe('OAuth connections to upstreams', () => {
  let h: Harness;
  let upstream: OAuthUpstream;
  let shortLived: OAuthUpstream;
  let inProcess: INestApplicationContext;
  let dataDir: string;
  const keys: Record<'alice' | 'bob' | 'carol', { id: string; key: string; api: Api; principal: Principal }> = {} as never;
  const sourceIds: Record<string, string> = {};
  const bodies: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    [upstream, shortLived] = await Promise.all([startOAuthUpstream(), startOAuthUpstream(['--token-ttl', '20'])]);
    h = await startHarness({ PORT: String(port), TOOLPLANE_PUBLIC_URL: publicUrl, LOG_LEVEL: 'debug' });
    for (const name of ['alice', 'bob', 'carol'] as const) {
      const created = await h.api.post('/api/v1/api-keys', { name, role: 'agent' });
      keys[name] = { id: created.body.id, key: created.body.key, api: makeApi(h.url, created.body.key), principal: { id: created.body.id, name, kind: 'api-key', roles: ['agent'] } };
    }
    sourceIds.guarded = await registerOAuthSource(h, 'guarded', upstream.mcpUrl, {}, keys.alice.id);
    sourceIds.brief = await registerOAuthSource(h, 'brief', shortLived.mcpUrl, { scopes: ['mcp:tools'] });
    // The registration's own discovery (refused: no credential yet) ends before the tests look at refreshes.
    await until(async () => (await lastRefresh('guarded')) !== null);
    dataDir = mkdtempSync(join(tmpdir(), 'toolplane-oauth-'));
    const config = loadConfig({
      DATABASE_URL: h.databaseUrl,
      TOOLPLANE_DATA_DIR: dataDir,
      TOOLPLANE_ENCRYPTION_KEY: readFileSync(join(h.dataDir, 'encryption.key'), 'utf8').trim(),
      TOOLPLANE_PUBLIC_URL: publicUrl,
      TOOLPLANE_REFRESH_TICK_MS: '3600000',
    });
    inProcess = await NestFactory.createApplicationContext(AppModule.forRoot(config, h.adminKey), { logger: false, abortOnError: false });
  }, 120_000);

  afterAll(async () => {
    await inProcess?.close();
    await h?.close();
    await Promise.all([upstream?.stop(), shortLived?.stop()]);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const lastRefresh = async (name: string) => ((await h.sql<{ at: Date | null }>(`SELECT last_refresh_at AS at FROM sources WHERE name = $1`, [name]))[0]?.at ?? null)?.toISOString() ?? null;
  const until = async (check: () => Promise<boolean>, ms = 5000) => {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return true;
  };
  const canaries: string[] = [];
  /** States and codes: shown to the browser that connects, never logged or stored. */
  const flowValues: string[] = [];
  const credentials = () => inProcess.get(OAuthModeCredentials, { strict: false });
  const targetOf = (source: 'guarded' | 'brief'): UpstreamTarget => ({
    sourceId: sourceIds[source]!,
    sourceName: source,
    transport: 'streamable-http',
    lifecycle: 'singleton',
    args: [],
    env: {},
    url: source === 'guarded' ? upstream.mcpUrl : shortLived.mcpUrl,
    headers: {},
    secrets: [],
  });
  const request = (who: keyof typeof keys, source: 'guarded' | 'brief' = 'guarded', target = targetOf(source)) => ({
    target,
    auth: { mode: 'oauth' as const, oauth: {} },
    principal: keys[who].principal,
  });
  const ready = (outcome: CredentialOutcome): UpstreamTarget => {
    if (outcome.kind !== 'ready') throw new Error(`expected a credential, got ${JSON.stringify(outcome)}`);
    return outcome.target;
  };
  /** Calls a tool of the fixture with a target's URL and headers (what the transport would send). */
  const call = async (target: UpstreamTarget, name: string, args: Record<string, unknown> = {}) => {
    const client = new Client({ name: 'oauth-e2e', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(target.url!), { requestInit: { headers: target.headers } }));
      return await client.callTool({ name, arguments: args });
    } finally {
      await client.close().catch(() => undefined);
    }
  };
  const whoami = async (target: UpstreamTarget) => (await call(target, 'whoami')).structuredContent as { sub: string; aud: string; clientId: string };
  const connect = async (who: keyof typeof keys, source = 'guarded', login: string = who) => {
    const started = await keys[who].api.request('GET', `/api/v1/sources/${source}/connect`, undefined, { headers: { accept: 'application/json' } });
    bodies.push(JSON.stringify(started.body));
    expect(started.status).toBe(200);
    const back = await consent(started.body.authorizationUrl, login);
    const callback = new URL(back.callbackUrl);
    flowValues.push(callback.searchParams.get('state')!, callback.searchParams.get('code')!);
    return back;
  };
  const connections = async (who: keyof typeof keys) => {
    const listed = await keys[who].api.get('/api/v1/me/connections');
    bodies.push(JSON.stringify(listed.body));
    return listed.body.items as { source: string; status: string; scopes: string[]; expiresAt: string | null; refreshedAt: string | null }[];
  };
  const audit = async (action: string) => ((await h.api.get(`/api/v1/audit-events?action=${action}&limit=100`)).body.items as { action: string; actor: string; details: Record<string, unknown> }[]).filter((event) => event.action === action);

  it('discovers, registers, authorizes with PKCE and resource, and each call carries its own principal’s token', async () => {
    const unconnected = await connections('alice');
    expect(unconnected).toEqual(expect.arrayContaining([expect.objectContaining({ source: 'guarded', status: 'not_connected' })]));
    const none = await credentials().forCall(request('alice'));
    expect(none).toMatchObject({ kind: 'required', code: 'UPSTREAM_CONSENT_REQUIRED' });

    const started = await keys.alice.api.request('GET', '/api/v1/sources/guarded/connect', undefined, { headers: { accept: 'application/json' } });
    const authorize = new URL(started.body.authorizationUrl);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('resource')).toBe(upstream.mcpUrl);
    expect(authorize.searchParams.get('scope')).toBe('mcp:tools profile');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${h.url}/api/v1/oauth/callback`);
    // Without Accept: application/json the route redirects to the same kind of URL.
    const redirected = await fetch(`${h.url}/api/v1/sources/guarded/connect`, { redirect: 'manual', headers: { authorization: `Bearer ${keys.alice.key}` } });
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get('location')).toMatch(new RegExp(`^${upstream.issuer}/authorize\\?`));

    const refreshedBefore = await lastRefresh('guarded');
    const back = await consent(started.body.authorizationUrl, 'alice');
    expect(back).toMatchObject({ status: 302, location: '/console/connections?connected=guarded' });
    // alice registered it (its discovery principal) and it never discovered: her connection refreshes it.
    expect(await until(async () => (await lastRefresh('guarded')) !== refreshedBefore)).toBe(true);
    const refreshedByAlice = await lastRefresh('guarded');
    expect(await connect('bob')).toMatchObject({ status: 302, location: '/console/connections?connected=guarded' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await lastRefresh('guarded')).toBe(refreshedByAlice);

    const asAlice = ready(await credentials().forCall(request('alice')));
    const asBob = ready(await credentials().forCall(request('bob')));
    expect(asAlice.poolKey).toBe(`${sourceIds.guarded}#${keys.alice.id}`);
    expect(asBob.poolKey).toBe(`${sourceIds.guarded}#${keys.bob.id}`);
    expect(asAlice.headers.Authorization).not.toBe(asBob.headers.Authorization);
    expect(asAlice.secrets.map((secret) => secret.value)).toEqual([asAlice.headers.Authorization!.slice('Bearer '.length)]);
    expect(await whoami(asAlice)).toMatchObject({ sub: 'alice', aud: upstream.mcpUrl });
    expect(await whoami(asBob)).toMatchObject({ sub: 'bob', aud: upstream.mcpUrl });
    expect((await call(asAlice, 'echo', { message: 'hi' })).content).toEqual([{ type: 'text', text: 'hi' }]);

    // One client, registered dynamically once, with a secret (sealed, never in plain text).
    const clients = await upstream.clients();
    expect(clients).toEqual([expect.objectContaining({ authMethod: 'client_secret_basic', metadataDocument: false })]);
    const [stored] = await h.sql(`SELECT registration, client_secret_sealed IS NOT NULL AS sealed FROM oauth_clients WHERE source_id = $1`, [sourceIds.guarded]);
    expect(stored).toEqual({ registration: 'dynamic', sealed: true });

    expect(await connections('alice')).toEqual(expect.arrayContaining([expect.objectContaining({ source: 'guarded', status: 'connected', scopes: ['mcp:tools', 'profile'] })]));
    const granted = await audit('connection.granted');
    expect(granted.map((event) => event.details.principalName).sort()).toEqual(['alice', 'bob']);
  }, 60_000);

  it('refreshes a token that ends within a minute before using it, the refresh token rotated', async () => {
    expect(await connect('alice', 'brief')).toMatchObject({ status: 302 });
    const first = (await shortLived.tokens()).filter((token) => token.sub === 'alice');
    expect(first).toHaveLength(2);
    // The token lives 20 s: within the minute's margin at once, so the call's credential is a refreshed one.
    const target = ready(await credentials().forCall(request('alice', 'brief')));
    const issued = first.find((token) => token.kind === 'access')!.token;
    expect(target.headers.Authorization).not.toBe(`Bearer ${issued}`);
    expect(await whoami(target)).toMatchObject({ sub: 'alice', aud: shortLived.mcpUrl });
    const after = await shortLived.tokens();
    expect(after.find((token) => token.token === first.find((t) => t.kind === 'refresh')!.token)).toMatchObject({ used: true });
    const listed = (await connections('alice')).find((connection) => connection.source === 'brief')!;
    expect(listed.status).toBe('connected');
    expect(listed.refreshedAt).not.toBeNull();
    expect(listed.scopes).toEqual(['mcp:tools']);
  }, 60_000);

  it('refreshes once after the upstream refuses a token the authorization server revoked, and the new one works', async () => {
    const before = ready(await credentials().forCall(request('bob')));
    expect(await upstream.control('revoke', { sub: 'bob', kind: 'access' })).toBeGreaterThan(0);
    await expect(call(before, 'whoami')).rejects.toThrow(/invalid_token/);
    const again = ready(await credentials().afterUnauthorized(request('bob', 'guarded', before)));
    expect(again.headers.Authorization).not.toBe(before.headers.Authorization);
    expect(await whoami(again)).toMatchObject({ sub: 'bob' });
    // The next call uses the refreshed token without another refresh.
    expect(ready(await credentials().forCall(request('bob'))).headers.Authorization).toBe(again.headers.Authorization);
    // An expired token (the server ended it early) is refreshed the same way.
    expect(await upstream.control('expire', { sub: 'bob' })).toBeGreaterThan(0);
    await expect(call(again, 'whoami')).rejects.toThrow(/invalid_token/);
    expect(await whoami(ready(await credentials().afterUnauthorized(request('bob', 'guarded', again))))).toMatchObject({ sub: 'bob' });
  }, 60_000);

  it('through REST invoke and /mcp: a call carries the caller’s token, an upstream 401 is refreshed once inside the call, and a caller without a connection is given its link (-32042 or an error result)', async () => {
    const viaRest = async () => {
      const answer = await keys.bob.api.post('/api/v1/tools/guarded__whoami/invoke', { arguments: {} });
      bodies.push(JSON.stringify(answer.body));
      expect(answer.status).toBe(200);
      return answer.body.result.structuredContent ?? JSON.parse(answer.body.result.content[0].text);
    };
    expect(await viaRest()).toMatchObject({ sub: 'bob' });
    const issued = (await upstream.tokens()).filter((token) => token.sub === 'bob' && token.kind === 'access').length;
    expect(await upstream.control('revoke', { sub: 'bob', kind: 'access' })).toBeGreaterThan(0);
    expect(await viaRest()).toMatchObject({ sub: 'bob' });
    expect((await upstream.tokens()).filter((token) => token.sub === 'bob' && token.kind === 'access').length).toBe(issued + 1);
    // carol has no connection: refused before anything is sent, with the link to open.
    const refused = await keys.carol.api.post('/api/v1/tools/guarded__whoami/invoke', { arguments: {} });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 'UPSTREAM_CONSENT_REQUIRED', connectUrl: expect.stringMatching(new RegExp(`^${h.url}/api/v1/connect/`)) });
    // Over /mcp: a 2025-11-25 caller that takes URL elicitation gets -32042 with the link; any other, an error result carrying it.
    const mcp = async (capabilities: Record<string, unknown>) => {
      const client = new Client({ name: 'oauth-e2e', version: '1' }, { capabilities, versionNegotiation: { mode: 'legacy' } });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keys.carol.key}` } } }));
      try {
        return await client.callTool({ name: 'guarded__whoami', arguments: {} }).then(
          (result) => ({ result, error: undefined }),
          (error: { code?: number; data?: { elicitations?: { mode: string; url: string }[] } }) => ({ result: undefined, error }),
        );
      } finally {
        await client.close();
      }
    };
    const elicited = await mcp({ elicitation: { url: {} } });
    expect(elicited.error?.code).toBe(-32042);
    expect(elicited.error?.data?.elicitations).toEqual([expect.objectContaining({ mode: 'url', url: expect.stringMatching(new RegExp(`^${h.url}/api/v1/connect/`)) })]);
    const plain = await mcp({});
    expect(plain.result?.isError).toBe(true);
    expect(String((plain.result?._meta as Record<string, unknown> | undefined)?.['io.toolplane/connectUrl'])).toMatch(new RegExp(`^${h.url}/api/v1/connect/`));
  }, 60_000);

  it('discovers a source with its discovery token (a service account’s) at once, never using it for calls', async () => {
    const serviceToken = (await upstream.tokens()).filter((token) => token.sub === 'bob' && token.kind === 'access' && !token.revoked).at(-1)!.token;
    canaries.push(serviceToken);
    expect((await h.api.put('/api/v1/secrets/CRM_DISCOVERY', { value: serviceToken })).status).toBe(201);
    const refusedLiteral = await h.api.post('/api/v1/sources', { name: 'svc', transport: 'streamable-http', url: upstream.mcpUrl, upstreamAuth: { mode: 'oauth', oauth: { discoveryToken: serviceToken } } });
    expect(refusedLiteral.body.error.details).toEqual([{ path: 'upstreamAuth.oauth.discoveryToken', message: expect.stringContaining('${secret:NAME}') }]);
    const created = await h.api.post('/api/v1/sources?wait=true', { name: 'svc', transport: 'streamable-http', url: upstream.mcpUrl, upstreamAuth: { mode: 'oauth', oauth: { discoveryToken: '${secret:CRM_DISCOVERY}' } } });
    expect(created.status).toBe(201);
    bodies.push(JSON.stringify(created.body));
    expect(created.body).toMatchObject({ health: 'healthy', toolCount: 2 });
    // Calls still need the caller's own connection.
    const refused = await keys.carol.api.post('/api/v1/tools/svc__whoami/invoke', { arguments: {} });
    expect(refused.body.error.code).toBe('UPSTREAM_CONSENT_REQUIRED');
    expect((await h.api.delete('/api/v1/sources/svc')).status).toBe(204);
  }, 60_000);

  it('asks for consent again when the refresh fails, with a single-use link that reconnects', async () => {
    const before = ready(await credentials().forCall(request('alice')));
    await upstream.control('revoke', { sub: 'alice', kind: 'all' });
    const refused = await credentials().afterUnauthorized(request('alice', 'guarded', before));
    expect(refused).toMatchObject({ kind: 'required', code: 'UPSTREAM_CONSENT_REQUIRED' });
    const connectUrl = (refused as { connectUrl: string }).connectUrl;
    expect(connectUrl).toMatch(new RegExp(`^${h.url}/api/v1/connect/[A-Za-z0-9_-]{43}$`));
    expect((await connections('alice')).find((connection) => connection.source === 'guarded')!.status).toBe('refresh_failed');
    const failures = await audit('connection.refresh_failed');
    expect(failures).toEqual([expect.objectContaining({ details: expect.objectContaining({ principalName: 'alice' }) })]);
    // While it stays failed, every call is asked to connect (no refresh storm).
    expect(await credentials().forCall(request('alice'))).toMatchObject({ kind: 'required' });

    // The Origin check of every route holds here too: a cross-site request is refused before the ticket is looked at.
    const crossSite = await fetch(connectUrl, { redirect: 'manual', headers: { origin: 'https://evil.example' } });
    expect(crossSite.status).toBe(403);
    // The link needs no credential: it starts an authorization bound to alice, once.
    const opened = await fetch(connectUrl, { redirect: 'manual' });
    expect(opened.status).toBe(302);
    expect(opened.headers.get('cache-control')).toBe('no-store');
    expect(await consent(opened.headers.get('location')!, 'alice')).toMatchObject({ status: 302, location: '/console/connections?connected=guarded' });
    const reused = await fetch(connectUrl, { redirect: 'manual' });
    expect(reused.status).toBe(404);
    expect(((await reused.json()) as { error: { code: string } }).error.code).toBe('CONNECT_TICKET_INVALID');
    expect(await whoami(ready(await credentials().forCall(request('alice'))))).toMatchObject({ sub: 'alice' });
  }, 60_000);

  it('refuses a bad, expired or used state and a bad or expired ticket, storing nothing; a callback stores for the flow’s principal only', async () => {
    const count = async () => (await h.sql<{ n: string }>(`SELECT count(*) AS n FROM upstream_connections`))[0]!.n;
    const stored = await count();
    for (const state of ['', 'x', 'A'.repeat(43), '../../etc']) {
      const answer = await fetch(`${h.url}/api/v1/oauth/callback?code=abc&state=${encodeURIComponent(state)}`, { redirect: 'manual' });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('OAUTH_STATE_INVALID');
    }
    // Used: the same callback twice.
    const started = await keys.carol.api.request('GET', '/api/v1/sources/guarded/connect', undefined, { headers: { accept: 'application/json' } });
    const url = new URL(started.body.authorizationUrl);
    url.searchParams.set('login', 'carol');
    const callbackUrl = (await fetch(url, { redirect: 'manual' })).headers.get('location')!;
    // Bob's credential on the callback changes nothing: the state says whose connection it is.
    const first = await fetch(callbackUrl, { redirect: 'manual', headers: { authorization: `Bearer ${keys.bob.key}` } });
    expect(first.status).toBe(302);
    expect(await first.text()).toBe('');
    const second = await fetch(callbackUrl, { redirect: 'manual' });
    expect(second.status).toBe(400);
    expect(await whoami(ready(await credentials().forCall(request('carol'))))).toMatchObject({ sub: 'carol' });
    expect(await whoami(ready(await credentials().forCall(request('bob'))))).toMatchObject({ sub: 'bob' });
    expect(Number(await count())).toBe(Number(stored) + 1);

    // Expired: a state and a ticket past their ten minutes.
    const late = await keys.carol.api.request('GET', '/api/v1/sources/brief/connect', undefined, { headers: { accept: 'application/json' } });
    const ticketOutcome = await credentials().forCall(request('carol', 'brief'));
    const ticketUrl = (ticketOutcome as { connectUrl: string }).connectUrl;
    await h.sql(`UPDATE oauth_flows SET expires_at = now() - interval '1 second'`);
    const lateBack = await consent(late.body.authorizationUrl, 'carol');
    expect(lateBack.status).toBe(400);
    expect(JSON.parse(lateBack.body).error.code).toBe('OAUTH_STATE_INVALID');
    expect((await fetch(ticketUrl, { redirect: 'manual' })).status).toBe(404);
    expect((await fetch(`${h.url}/api/v1/connect/not-a-ticket`, { redirect: 'manual' })).status).toBe(404);
    expect(Number(await count())).toBe(Number(stored) + 1);
    // A returnTo outside the console is refused.
    const outside = await keys.carol.api.request('GET', '/api/v1/sources/guarded/connect?returnTo=https://evil.example/', undefined, { headers: { accept: 'application/json' } });
    expect(outside.status).toBe(400);
    expect(outside.body.error.details).toEqual([{ path: 'returnTo', message: 'must be a path under /console/' }]);
  }, 60_000);

  it('lets administrators list and revoke connections, and revokes at the authorization server on disconnect', async () => {
    expect((await keys.bob.api.get('/api/v1/sources/guarded/connections')).status).toBe(403);
    const listed = await h.api.get('/api/v1/sources/guarded/connections');
    bodies.push(JSON.stringify(listed.body));
    expect(listed.body.items.map((item: { principalName: string }) => item.principalName)).toEqual(['alice', 'bob', 'carol']);
    expect(listed.body.items[0]).toEqual({ principalId: keys.alice.id, principalName: 'alice', status: 'connected', scopes: ['mcp:tools', 'profile'], expiresAt: expect.any(String), connectedAt: expect.any(String) });

    const revocationsBefore = (await upstream.revocations()).length;
    expect((await h.api.delete(`/api/v1/sources/guarded/connections/${keys.carol.id}`)).status).toBe(204);
    expect((await h.api.delete(`/api/v1/sources/guarded/connections/${keys.carol.id}`)).status).toBe(404);
    expect(await credentials().forCall(request('carol'))).toMatchObject({ kind: 'required' });
    expect((await keys.bob.api.delete('/api/v1/me/connections/guarded')).status).toBe(204);
    expect(await credentials().forCall(request('bob'))).toMatchObject({ kind: 'required' });
    const revocations = (await upstream.revocations()).slice(revocationsBefore);
    expect(revocations).toEqual(expect.arrayContaining([expect.objectContaining({ sub: 'carol', kind: 'refresh' }), expect.objectContaining({ sub: 'bob', kind: 'refresh' })]));
    const bobTokens = (await upstream.tokens()).filter((token) => token.sub === 'bob');
    expect(bobTokens.every((token) => token.revoked || token.used)).toBe(true);
    const revoked = await audit('connection.revoked');
    expect(revoked.map((event) => [event.details.principalName, event.actor]).sort()).toEqual([
      ['bob', keys.bob.id],
      ['carol', 'admin'],
    ]);
    expect((await connections('bob')).find((connection) => connection.source === 'guarded')!.status).toBe('not_connected');
  }, 60_000);

  it('drops the connections of a revoked API key', async () => {
    expect((await h.sql(`SELECT 1 FROM upstream_connections WHERE principal_id = $1`, [keys.alice.id])).length).toBe(2);
    expect((await h.api.delete(`/api/v1/api-keys/${keys.alice.id}`)).status).toBe(200);
    const deadline = Date.now() + 5000;
    while ((await h.sql(`SELECT 1 FROM upstream_connections WHERE principal_id = $1`, [keys.alice.id])).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await h.sql(`SELECT 1 FROM upstream_connections WHERE principal_id = $1`, [keys.alice.id])).toEqual([]);
    expect((await upstream.revocations()).some((revocation) => revocation.sub === 'alice')).toBe(true);
  }, 30_000);

  it("revokes and deletes every caller's connection to a source when the source is removed", async () => {
    const doomed = await registerOAuthSource(h, 'doomed', upstream.mcpUrl);
    for (const who of ['bob', 'carol'] as const) expect(await connect(who, 'doomed')).toMatchObject({ status: 302, location: '/console/connections?connected=doomed' });
    expect((await h.sql(`SELECT principal_name FROM upstream_connections WHERE source_id = $1 ORDER BY principal_name`, [doomed])).map((row) => row.principal_name)).toEqual(['bob', 'carol']);
    const revocationsBefore = (await upstream.revocations()).length;
    const revokedBefore = (await audit('connection.revoked')).length;

    expect((await h.api.delete('/api/v1/sources/doomed')).status).toBe(204);
    expect(await until(async () => (await h.sql(`SELECT 1 FROM upstream_connections WHERE source_id = $1`, [doomed])).length === 0 && (await upstream.revocations()).length >= revocationsBefore + 4)).toBe(true);
    const revocations = (await upstream.revocations()).slice(revocationsBefore);
    expect(revocations.map((revocation) => `${revocation.sub}:${revocation.kind}`).sort()).toEqual(['bob:access', 'bob:refresh', 'carol:access', 'carol:refresh']);
    const revoked = (await audit('connection.revoked')).slice(0, (await audit('connection.revoked')).length - revokedBefore);
    expect(revoked.map((event) => [event.details.principalName, event.actor]).sort()).toEqual([
      ['bob', 'admin'],
      ['carol', 'admin'],
    ]);
  }, 60_000);

  it('uses a pre-registered client with its secret from ${secret:…}, OpenID discovery, and an authorization server without revocation', async () => {
    const secret = 'pre-registered-secret-7d1e0c2a';
    canaries.push(secret);
    const other = await startOAuthUpstream(['--client', `toolplane-app:${secret}`, '--oidc-only', '--no-revocation']);
    try {
      expect((await h.api.put('/api/v1/secrets/OAUTH_APP', { value: secret })).status).toBe(201);
      sourceIds.pre = await registerOAuthSource(h, 'pre', other.mcpUrl, { clientId: 'toolplane-app', clientSecret: '${secret:OAUTH_APP}' });
      expect(await connect('carol', 'pre')).toMatchObject({ status: 302, location: '/console/connections?connected=pre' });
      const target = ready(await credentials().forCall({ ...request('carol'), target: { ...targetOf('guarded'), sourceId: sourceIds.pre, sourceName: 'pre', url: other.mcpUrl } }));
      expect(await whoami(target)).toMatchObject({ sub: 'carol', clientId: 'toolplane-app' });
      expect((await other.clients()).map((client) => client.id)).toEqual(['toolplane-app']);
      expect(await h.sql(`SELECT registration, client_secret_sealed FROM oauth_clients WHERE source_id = $1`, [sourceIds.pre])).toEqual([{ registration: 'pre-registered', client_secret_sealed: null }]);
      expect((await keys.carol.api.delete('/api/v1/me/connections/pre')).status).toBe(204);
      expect(await other.revocations()).toEqual([]);
      canaries.push(...(await other.tokens()).map((token) => token.token));
    } finally {
      await other.stop();
    }
  }, 60_000);

  it("follows the fixture's consent page (allow as another login, or deny), as a browser would", async () => {
    const other = await startOAuthUpstream(['--consent', 'page']);
    const form = async (authorizationUrl: string) => {
      const page = await fetch(authorizationUrl);
      const html = await page.text();
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(html).toContain('<button type="submit" name="decision" value="allow">Allow</button>');
      return new URLSearchParams([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]): [string, string] => [name!, value!.replace(/&amp;/g, '&').replace(/&quot;/g, '"')]));
    };
    const decide = async (fields: URLSearchParams, decision: 'allow' | 'deny') => {
      fields.set('login', 'dave');
      fields.set('decision', decision);
      const decided = await fetch(`${other.issuer}/authorize/decision`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields });
      expect(decided.status).toBe(302);
      return fetch(decided.headers.get('location')!, { redirect: 'manual' });
    };
    try {
      sourceIds.paged = await registerOAuthSource(h, 'paged', other.mcpUrl);
      const start = async () => (await keys.carol.api.request('GET', '/api/v1/sources/paged/connect', undefined, { headers: { accept: 'application/json' } })).body.authorizationUrl as string;
      const denied = await decide(await form(await start()), 'deny');
      expect(denied.headers.get('location')).toBe('/console/connections?error=OAUTH_AUTHORIZATION_DENIED');
      expect(await h.sql(`SELECT 1 FROM upstream_connections WHERE source_id = $1`, [sourceIds.paged])).toEqual([]);
      const allowed = await decide(await form(await start()), 'allow');
      expect(allowed.headers.get('location')).toBe('/console/connections?connected=paged');
      const target = ready(await credentials().forCall({ ...request('carol'), target: { ...targetOf('guarded'), sourceId: sourceIds.paged, sourceName: 'paged', url: other.mcpUrl } }));
      expect(await whoami(target)).toMatchObject({ sub: 'dave' });
      canaries.push(...(await other.tokens()).map((token) => token.token), ...(await other.clients()).flatMap((client) => (client.secret ? [client.secret] : [])));
    } finally {
      await other.stop();
    }
  }, 60_000);

  it('uses a client ID metadata document as the client when the authorization server supports it', async () => {
    const document = createServer((req, res) => {
      const url = `http://127.0.0.1:${(document.address() as AddressInfo).port}/client.json`;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ client_id: url, client_name: 'Toolplane', redirect_uris: [`${h.url}/api/v1/oauth/callback`], token_endpoint_auth_method: 'none' }));
    });
    await new Promise<void>((resolve) => document.listen(0, '127.0.0.1', resolve));
    const documentUrl = `http://127.0.0.1:${(document.address() as AddressInfo).port}/client.json`;
    const other = await startOAuthUpstream(['--cimd']);
    try {
      sourceIds.cimd = await registerOAuthSource(h, 'cimd', other.mcpUrl, { clientMetadataUrl: documentUrl });
      expect(await connect('carol', 'cimd')).toMatchObject({ status: 302, location: '/console/connections?connected=cimd' });
      const target = ready(await credentials().forCall({ ...request('carol'), target: { ...targetOf('guarded'), sourceId: sourceIds.cimd, sourceName: 'cimd', url: other.mcpUrl } }));
      expect(await whoami(target)).toMatchObject({ sub: 'carol', clientId: documentUrl });
      expect(await other.clients()).toEqual([]);
      expect(await h.sql(`SELECT registration FROM oauth_clients WHERE source_id = $1`, [sourceIds.cimd])).toEqual([{ registration: 'metadata-document' }]);
      canaries.push(...(await other.tokens()).map((token) => token.token));
    } finally {
      await other.stop();
      document.close();
    }
  }, 60_000);

  it('never lets a token or a client secret out (not in answers, logs, audit or the database in plain text), nor a state or code into logs or the database', async () => {
    const secrets = [...(await upstream.clients()), ...(await shortLived.clients())].flatMap((client) => (client.secret ? [client.secret] : []));
    // One client registered dynamically per source: guarded, brief, doomed.
    expect(secrets).toHaveLength(3);
    canaries.push(...[...(await upstream.tokens()), ...(await shortLived.tokens())].map((token) => token.token), ...secrets);
    expect(canaries.length).toBeGreaterThan(10);
    bodies.push(JSON.stringify((await h.api.get('/api/v1/audit-events?limit=200')).body), JSON.stringify((await h.api.get('/api/v1/sources/guarded')).body));
    const found: string[] = [];
    const search = (where: string, text: string) => {
      for (const canary of canaries) if (text.includes(canary)) found.push(`${where} holds ${canary.slice(0, 6)}…`);
    };
    bodies.forEach((body, i) => search(`answer ${i}`, body));
    search('the log', h.process.logs());
    for (const { table_name } of await h.sql<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`)) {
      const rows = await h.sql<{ row: string }>(`SELECT t::text AS row FROM "${table_name}" t`);
      search(`table ${table_name}`, rows.map((r) => r.row).join('\n'));
    }
    expect(flowValues.length).toBeGreaterThanOrEqual(8);
    const log = h.process.logs();
    for (const value of flowValues) {
      if (log.includes(value)) found.push(`the log holds a state or code ${value.slice(0, 6)}…`);
      for (const { table_name } of await h.sql<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`)) {
        const [hit] = await h.sql(`SELECT 1 FROM "${table_name}" t WHERE t::text LIKE '%' || $1 || '%' LIMIT 1`, [value]);
        if (hit) found.push(`table ${table_name} holds a state or code ${value.slice(0, 6)}…`);
      }
    }
    expect(found).toEqual([]);
  }, 30_000);
});
