import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { FIXTURES, stopGroup } from './upstreams.js';

/** test/fixtures/token-exchange-issuer.mjs, running: its addresses and its control endpoints. */
export interface TokenExchangeIssuer {
  issuer: string;
  jwksUri: string;
  tokenEndpoint: string;
  mcpUrl: string;
  mcpAudience: string;
  clientId: string;
  clientSecret: string;
  /** A token of the issuer for `sub` (an access token for Toolplane, or an ID token). */
  tokenFor(sub: string, options?: { idToken?: boolean; roles?: string[]; aud?: string; expiresIn?: string }): Promise<string>;
  stats(): Promise<ExchangeStats>;
  /** Every exchanged token issued so far is refused by the MCP server from now on. */
  revokeExchanged(): Promise<void>;
  stop(): Promise<void>;
}

/** The exchanges the token endpoint made, the tokens it issued so, and every bearer token the MCP server was sent. */
export interface ExchangeStats {
  exchanges: { sub: string; subjectTokenType: string; audience: string | null; resource: string | null; scope: string | null }[];
  exchangedTokens: string[];
  bearerTokensSeen: string[];
}

export async function startTokenExchangeIssuer(toolplaneAudience: string, options: { exchangedTtlSeconds?: number } = {}): Promise<TokenExchangeIssuer> {
  const clientId = 'toolplane';
  const clientSecret = 'te-client-secret-5c1f0b7e';
  const args = [join(FIXTURES, 'token-exchange-issuer.mjs'), '--audience', toolplaneAudience, '--client-id', clientId, '--client-secret', clientSecret];
  if (options.exchangedTtlSeconds !== undefined) args.push('--exchanged-ttl', String(options.exchangedTtlSeconds));
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const addresses = await new Promise<Omit<TokenExchangeIssuer, 'clientId' | 'clientSecret' | 'tokenFor' | 'stats' | 'revokeExchanged' | 'stop'>>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the token exchange issuer did not start: ${stderr}`)), 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        clearTimeout(timer);
        resolve(JSON.parse(line));
      }
    });
    child.once('exit', (code) => reject(new Error(`the token exchange issuer exited with ${code}: ${stderr}`)));
  });
  const post = async (path: string, body: unknown) => (await fetch(`${addresses.issuer}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  return {
    ...addresses,
    clientId,
    clientSecret,
    tokenFor: async (sub, tokenOptions = {}) => ((await post('/control/token', { sub, ...tokenOptions })) as { token: string }).token,
    stats: async () => (await (await fetch(`${addresses.issuer}/control/stats`)).json()) as ExchangeStats,
    revokeExchanged: async () => void (await post('/control/revoke-exchanged', {})),
    stop: () => stopGroup(child),
  };
}
