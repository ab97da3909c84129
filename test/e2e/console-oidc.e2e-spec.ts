import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type KeyObject } from 'jose';
import type { Browser } from 'playwright-core';
import { launchChromium, openConsole } from '../helpers/console-browser.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { freePort } from '../helpers/upstreams.js';

/**
 * The console's OpenID Connect sign-in in Chromium: authorization code with PKCE against this
 * test's own issuer (on loopback), which checks the challenge against the verifier before it
 * issues a token; the console then acts with the role the token names.
 */
describe('the console signs in with OIDC', () => {
  let h: Harness;
  let browser: Browser;
  let issuerServer: Server;
  let issuer: string;
  const audience = 'http://toolplane.test';
  const challenges = new Map<string, { challenge: string; redirectUri: string }>();
  const exchanges: { verifierMatched: boolean }[] = [];

  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'console', alg: 'ES256', use: 'sig' };
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    issuerServer = createServer((request, response) => {
      const url = new URL(request.url!, issuer);
      const json = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end(JSON.stringify(body));
      if (url.pathname === '/.well-known/openid-configuration') {
        return json(200, { issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`, code_challenge_methods_supported: ['S256'] });
      }
      if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
      if (url.pathname === '/authorize') {
        // Consent at once: the browser comes straight back with a code bound to the challenge.
        const params = url.searchParams;
        if (params.get('client_id') !== 'console' || params.get('code_challenge_method') !== 'S256' || params.get('response_type') !== 'code') return json(400, { error: 'invalid_request' });
        const code = `code-${challenges.size + 1}`;
        challenges.set(code, { challenge: params.get('code_challenge')!, redirectUri: params.get('redirect_uri')! });
        const back = new URL(params.get('redirect_uri')!);
        back.searchParams.set('code', code);
        back.searchParams.set('state', params.get('state')!);
        return response.writeHead(302, { location: back.toString() }).end();
      }
      if (url.pathname === '/token' && request.method === 'POST') {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          const form = new URLSearchParams(body);
          const pending = challenges.get(form.get('code') ?? '');
          const verifierMatched = pending !== undefined && createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url') === pending.challenge;
          exchanges.push({ verifierMatched });
          if (!verifierMatched || form.get('redirect_uri') !== pending!.redirectUri) return json(400, { error: 'invalid_grant' });
          void new SignJWT({ roles: ['auditor'], name: 'Ada Auditor' })
            .setProtectedHeader({ alg: 'ES256', kid: 'console' })
            .setSubject('ada')
            .setIssuer(issuer)
            .setAudience(form.get('resource') ?? audience)
            .setIssuedAt()
            .setExpirationTime('5m')
            .sign(privateKey as KeyObject)
            .then((token) => json(200, { access_token: token, token_type: 'Bearer', expires_in: 300 }));
        });
        return;
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => issuerServer.listen(port, '127.0.0.1', resolve));
    h = await startHarness({ TOOLPLANE_OIDC_ISSUER: issuer, TOOLPLANE_OIDC_AUDIENCE: audience, TOOLPLANE_OIDC_CONSOLE_CLIENT_ID: 'console' });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
    await new Promise((resolve) => issuerServer?.close(resolve));
  });

  it('lets the issuer in the CSP, and signs in with the authorization code and PKCE', async () => {
    const page = await fetch(`${h.url}/console`);
    expect(page.headers.get('content-security-policy')).toContain(`connect-src 'self' ${issuer}`);
    expect(await (await fetch(`${h.url}/console/settings.json`)).json()).toEqual({ oidc: { issuer, clientId: 'console', scopes: 'openid', resource: audience } });

    const tab = await openConsole(browser, h.url, undefined);
    await tab.page.getByRole('button', { name: `Sign in with 127.0.0.1:${new URL(issuer).port}` }).click();
    await tab.page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(exchanges).toEqual([{ verifierMatched: true }]);
    await expect(tab.page.locator('.who').textContent()).resolves.toContain('Ada Auditor (auditor)');
    // An auditor: the audit trail, no write buttons.
    await tab.page.getByRole('link', { name: 'Audit' }).waitFor();
    expect(await tab.page.getByRole('link', { name: 'Register a source' }).count()).toBe(0);
    expect(new URL(tab.page.url()).search).toBe('');
    await tab.page.getByRole('button', { name: 'Sign out' }).click();
    await tab.page.getByLabel('API key').waitFor();
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });
});
