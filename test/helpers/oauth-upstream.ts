import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Harness } from './toolplane-harness.js';
import { FIXTURES, stopGroup } from './upstreams.js';

/** A running test/fixtures/oauth-upstream.mjs: its authorization server and protected MCP server. */
export interface OAuthUpstream {
  issuer: string;
  mcpUrl: string;
  controlUrl: string;
  /** Every token the authorization server issued (the test's canaries). */
  tokens(): Promise<{ token: string; kind: 'access' | 'refresh'; sub: string; revoked: boolean; used?: boolean }[]>;
  revocations(): Promise<{ sub: string; kind: string }[]>;
  clients(): Promise<{ id: string; secret: string | null; authMethod: string; metadataDocument: boolean }[]>;
  control(action: 'expire' | 'revoke', body: { sub?: string; kind?: 'access' | 'all' }): Promise<number>;
  stop(): Promise<void>;
}

export async function startOAuthUpstream(args: string[] = []): Promise<OAuthUpstream> {
  const child = spawn(process.execPath, [join(FIXTURES, 'oauth-upstream.mjs'), ...args], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`oauth-upstream did not start:\n${stderr}`)), 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.split('\n')[0]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`oauth-upstream exited (${code}):\n${stderr}`)));
  });
  const info = JSON.parse(line) as { issuer: string; mcpUrl: string; controlUrl: string };
  const get = async <T>(path: string): Promise<T> => (await (await fetch(`${info.controlUrl}/${path}`)).json()) as T;
  return {
    ...info,
    tokens: async () => (await get<{ tokens: Awaited<ReturnType<OAuthUpstream['tokens']>> }>('tokens')).tokens,
    revocations: async () => (await get<{ revocations: { sub: string; kind: string }[] }>('revocations')).revocations,
    clients: async () => (await get<{ clients: Awaited<ReturnType<OAuthUpstream['clients']>> }>('clients')).clients,
    control: async (action, body) => {
      const response = await fetch(`${info.controlUrl}/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return ((await response.json()) as { changed: number }).changed;
    },
    stop: () => stopGroup(child),
  };
}

/**
 * Registers an `oauth` streamable-http source for `url` over REST (as the admin). With
 * `registeredBy` another principal's id, that principal is made its discovery principal, as if it
 * had registered it.
 */
export async function registerOAuthSource(h: Harness, name: string, url: string, oauth: Record<string, unknown> = {}, registeredBy = 'admin'): Promise<string> {
  const created = await h.api.post('/api/v1/sources?wait=false', { name, transport: 'streamable-http', url, upstreamAuth: { mode: 'oauth', oauth } });
  if (created.status !== 201) throw new Error(`registering ${name}: ${created.status} ${JSON.stringify(created.body)}`);
  if (registeredBy !== 'admin') {
    await h.sql(`UPDATE sources SET discovery_principal = $2 WHERE id = $1`, [created.body.id, JSON.stringify({ id: registeredBy, name: registeredBy, kind: 'api-key' })]);
  }
  return created.body.id as string;
}

/**
 * Connects as a browser would: asks Toolplane for the authorization URL with `api`'s credential,
 * consents at the fixture as `login`, and follows the redirect back to Toolplane's callback.
 * Answers the callback's answer (a redirect to the console).
 */
export async function consent(authorizationUrl: string, login: string, callbackHeaders: Record<string, string> = {}): Promise<{ status: number; location: string | null; callbackUrl: string; body: string }> {
  const url = new URL(authorizationUrl);
  url.searchParams.set('login', login);
  const authorized = await fetch(url, { redirect: 'manual' });
  const callbackUrl = authorized.headers.get('location');
  if (authorized.status !== 302 || !callbackUrl) throw new Error(`the authorization server answered ${authorized.status}: ${await authorized.text()}`);
  const back = await fetch(callbackUrl, { redirect: 'manual', headers: callbackHeaders });
  return { status: back.status, location: back.headers.get('location'), callbackUrl, body: await back.text() };
}
