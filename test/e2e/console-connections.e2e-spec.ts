import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, goTo, launchChromium, openConsole, type ConsoleTab } from '../helpers/console-browser.js';
import { startOAuthUpstream, type OAuthUpstream } from '../helpers/oauth-upstream.js';
import { makeApi, startHarness, type Api, type Harness } from '../helpers/toolplane-harness.js';
import { freePort, ROOT } from '../helpers/upstreams.js';

const CLI = resolve(ROOT, 'dist/src/cli/main.js');

/**
 * The console's Connections page against a real Toolplane and an OAuth-protected MCP server: an
 * admin registers the source (awaiting its first connection), connects it in the browser through
 * the authorization server's consent page (its tools are then discovered), a second person does
 * the same on their own Connections page, and their call answers as them; disconnecting drops it.
 * My secrets stores a value without ever showing it back; the admin sees and revokes connections
 * on the source's page.
 */
describe('the console: connections to sources that sign in per user', () => {
  let h: Harness;
  let upstream: OAuthUpstream;
  let browser: Browser;
  let bob: Api;
  let bobKey: string;
  const tabs: ConsoleTab[] = [];

  const open = async (key: string) => {
    const tab = await openConsole(browser, h.url, key);
    tabs.push(tab);
    return tab;
  };
  const accessible = async (page: Page) => {
    const violations = await axeViolations(page);
    expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
  };
  const row = (page: Page, name: string) => page.getByRole('region', { name: 'Your connections' }).getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
  /** On the fixture's consent page: signs in as `login` and decides; back on the console's Connections page. */
  const decide = async ({ page, errors }: Pick<ConsoleTab, 'page' | 'errors'>, login: string, decision: 'Allow' | 'Deny') => {
    const away = errors.length;
    await page.getByRole('heading', { name: 'Allow access?' }).waitFor();
    await page.getByLabel('Sign in as').fill(login);
    await page.getByRole('button', { name: decision }).click();
    await page.waitForURL((url) => url.pathname === '/console/connections');
    // The fixture's consent page names an empty icon, so Chromium asks it for no favicon; a 404
    // logged while it was shown is still not the console's.
    errors.splice(away, errors.length - away, ...errors.slice(away).filter((error) => !error.includes('status of 404')));
  };
  /** Clicks Connect on the Connections page, signs in as `login` on the consent page and allows: back on the page, connected. */
  const connectInBrowser = async ({ page, errors }: ConsoleTab, login: string) => {
    await page.getByRole('button', { name: 'Connect upstream' }).click();
    await page.waitForURL((url) => url.href.startsWith(upstream.issuer));
    await decide({ page, errors }, login, 'Allow');
    await page.getByRole('status').filter({ hasText: 'Connected to upstream.' }).waitFor();
    // The address no longer carries the return's query: a reload does not say it again.
    await page.waitForURL((url) => url.search === '');
    await row(page, 'upstream').getByText('connected', { exact: true }).waitFor();
  };
  const whoami = (api: Api) => api.post('/api/v1/tools/upstream__whoami/invoke', { arguments: {} });

  beforeAll(async () => {
    // The consent page: the person signs in (as whom they type) and allows, in the browser.
    upstream = await startOAuthUpstream(['--consent', 'page']);
    const port = await freePort();
    h = await startHarness({ PORT: String(port), TOOLPLANE_PUBLIC_URL: `http://127.0.0.1:${port}` });
    const registered = await h.api.post('/api/v1/sources', { name: 'upstream', transport: 'streamable-http', url: upstream.mcpUrl, upstreamAuth: { mode: 'oauth', oauth: {} } });
    expect(registered.status).toBe(201);
    expect(registered.body.health).toBe('awaiting_connection');
    bobKey = (await h.api.post('/api/v1/api-keys', { name: 'bob key', role: 'agent', owner: 'bob' })).body.key;
    bob = makeApi(h.url, bobKey);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    for (const tab of tabs) await tab.context.close().catch(() => undefined);
    await browser?.close();
    await h?.close();
    await upstream?.stop();
  });

  it('the admin connects the source it registered in the browser: the source then discovers with that connection', async () => {
    const tab = await open(h.adminKey);
    const { page, errors } = tab;
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.getByRole('heading', { name: 'Connections' }).waitFor();
    await row(page, 'upstream').getByText('not connected').waitFor();
    await accessible(page);
    await goTo(page, '/sources/upstream');
    // Until it has discovered, the source's page says what it waits for.
    await page.getByRole('heading', { name: /upstream\s+awaiting connection/ }).waitFor();
    await page.getByText('Its tools are discovered once the principal that registered it connects').waitFor();
    await page.getByRole('link', { name: 'Connections', exact: true }).last().click();
    await connectInBrowser(tab, 'alice');
    await expect(row(page, 'upstream').textContent()).resolves.toMatch(/mcp:tools.*in \d+ min/);
    expect((await h.api.get('/api/v1/me/connections')).body.items).toEqual([expect.objectContaining({ source: 'upstream', status: 'connected' })]);
    // Connected, the source discovers with the admin's token: refreshed from its page.
    await goTo(page, '/sources/upstream');
    await page.getByText('per user (oauth)').waitFor();
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await page.getByRole('heading', { name: /upstream\s+healthy/ }).waitFor();
    await page.getByRole('link', { name: 'whoami' }).waitFor();
    expect(JSON.stringify((await whoami(h.api)).body.result)).toContain('alice');
    expect(errors).toEqual([]);
  });

  it('a consent denied on the authorization server comes back as an alert, and nothing is stored', async () => {
    const tab = await open(bobKey);
    const { page, errors } = tab;
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.getByRole('button', { name: 'Connect upstream' }).click();
    await decide(tab, 'bob', 'Deny');
    await page.getByRole('alert').filter({ hasText: 'consent was denied or refused' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'OAUTH_AUTHORIZATION_DENIED' }).waitFor();
    await row(page, 'upstream').getByText('not connected').waitFor();
    expect((await bob.get('/api/v1/me/connections')).body.items).toEqual([expect.objectContaining({ source: 'upstream', status: 'not_connected' })]);
    expect(errors).toEqual([]);
  });

  it('an admin sees every principal\'s connection on the source\'s page, and revokes one', async () => {
    const tab = await open(bobKey);
    await tab.page.getByRole('link', { name: 'Connections' }).click();
    await connectInBrowser(tab, 'bob');

    const { page, errors } = await open(h.adminKey);
    await goTo(page, '/sources/upstream');
    await page.getByText('per user (oauth)').waitFor();
    const table = page.getByRole('region', { name: 'Connections to this source' });
    await table.getByRole('cell', { name: 'bob key', exact: true }).waitFor();
    await table.getByRole('cell', { name: 'admin', exact: true }).waitFor();
    await accessible(page);
    await table.getByRole('button', { name: 'Revoke bob key\'s connection' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('status').filter({ hasText: 'Revoked bob key\'s connection.' }).waitFor();
    await table.getByRole('cell', { name: 'bob key', exact: true }).waitFor({ state: 'detached' });
    await table.getByRole('cell', { name: 'admin', exact: true }).waitFor();
    expect((await bob.get('/api/v1/me/connections')).body.items).toEqual([expect.objectContaining({ source: 'upstream', status: 'not_connected' })]);
    // Toolplane revoked bob's tokens at the authorization server.
    expect((await upstream.revocations()).map((revocation) => revocation.sub)).toContain('bob');
    // An agent has no view of anyone else's connections.
    expect((await bob.get('/api/v1/sources/upstream/connections')).status).toBe(403);
    await tab.page.reload();
    await row(tab.page, 'upstream').getByText('not connected').waitFor();
    expect(errors.concat(tab.errors)).toEqual([]);
  });

  it('My secrets stores one\'s own value without showing it back, replaces and deletes it', async () => {
    const { page, errors } = await open(bobKey);
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.getByRole('heading', { name: 'My secrets' }).waitFor();
    await page.getByText('No values of yours yet.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('JIRA_TOKEN');
    await page.getByLabel('Value', { exact: true }).fill('s3cret-of-bob');
    await page.getByRole('button', { name: 'Save value' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved your value of JIRA_TOKEN.' }).waitFor();
    const list = page.getByRole('region', { name: 'Your secret values' });
    await list.getByText('JIRA_TOKEN', { exact: true }).waitFor();
    // The value is gone from the page: not in the field, not in the text, not in any attribute.
    await expect(page.getByLabel('Value', { exact: true }).inputValue()).resolves.toBe('');
    await expect(page.content()).resolves.not.toContain('s3cret-of-bob');
    expect((await bob.get('/api/v1/me/secrets')).body.items).toEqual([expect.objectContaining({ name: 'JIRA_TOKEN' })]);
    // Nobody else holds it.
    expect((await h.api.get('/api/v1/me/secrets')).body.items).toEqual([]);

    await list.getByRole('button', { name: 'Replace JIRA_TOKEN' }).click();
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('JIRA_TOKEN');
    await expect(page.evaluate(() => (globalThis as any).document.activeElement?.id)).resolves.toBe('my-secret-value');
    await page.getByLabel('Value', { exact: true }).fill('another');
    await page.getByRole('button', { name: 'Save value' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved your value of JIRA_TOKEN.' }).waitFor();
    await accessible(page);

    await list.getByRole('button', { name: 'Delete JIRA_TOKEN' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No values of yours yet.').waitFor();
    expect((await bob.get('/api/v1/me/secrets')).body.items).toEqual([]);
    expect(errors).toEqual([]);
  });
  it('the CLI prints the consent link, lists and removes the connection, and stores one\'s own value from standard input', async () => {
    const home = mkdtempSync(join(tmpdir(), 'toolplane-cli-home-'));
    const cli = (args: string[], key: string, input?: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
        const child = spawn(process.execPath, [CLI, ...args], {
          cwd: home,
          env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), TOOLPLANE_URL: h.url, TOOLPLANE_API_KEY: key },
          stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        });
        if (input !== undefined) child.stdin!.end(input);
        let stdout = '';
        let stderr = '';
        child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.once('error', fail);
        child.once('close', (code) => done({ code, stdout, stderr }));
      });
    try {
      if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first`);
      const link = await cli(['connect', 'upstream'], bobKey);
      expect(link).toMatchObject({ code: 0 });
      const authorizationUrl = link.stdout.trim();
      expect(authorizationUrl.startsWith(`${upstream.issuer}/authorize?`)).toBe(true);
      expect(link.stderr).toContain('open this link in a browser to connect upstream');

      // The person's browser, by hand: the consent page, Allow as carol, back through Toolplane's callback.
      const consent = await (await fetch(authorizationUrl)).text();
      const form = new URLSearchParams([...consent.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]): [string, string] => [name!, value!.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>')]));
      form.set('login', 'carol');
      form.set('decision', 'allow');
      const decided = await fetch(`${upstream.issuer}/authorize/decision`, { method: 'POST', body: form, redirect: 'manual' });
      expect(decided.status).toBe(302);
      const back = await fetch(decided.headers.get('location')!, { redirect: 'manual' });
      expect(back.status).toBe(302);
      expect(back.headers.get('location')).toMatch(/\/console\/connections\?connected=upstream$/);
      expect(JSON.stringify((await whoami(bob)).body.result)).toContain('carol');

      const listed = await cli(['connections', 'ls'], bobKey);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(/^SOURCE +STATUS +SCOPES +EXPIRES +CONNECTED$/m);
      expect(listed.stdout).toMatch(/^upstream +connected +.*mcp:tools/m);
      const admin = await cli(['connections', 'ls', '--source', 'upstream'], h.adminKey);
      expect(admin.stdout).toMatch(/bob key +connected/);
      expect((await cli(['connections', 'ls', '--source', 'upstream'], bobKey)).code).toBe(1);

      const removed = await cli(['connections', 'rm', 'upstream'], bobKey);
      expect(removed).toMatchObject({ code: 0 });
      expect((await cli(['connections', 'ls'], bobKey)).stdout).toMatch(/^upstream +not_connected/m);
      expect((await whoami(bob)).body.error.code).toBe('UPSTREAM_CONSENT_REQUIRED');

      const put = await cli(['secrets', 'mine', 'put', 'JIRA_TOKEN'], bobKey, 'from-stdin-s3cret\n');
      expect(put).toMatchObject({ code: 0 });
      expect(put.stdout + put.stderr).not.toContain('from-stdin-s3cret');
      expect((await cli(['secrets', 'mine', 'ls'], bobKey)).stdout).toMatch(/^JIRA_TOKEN /m);
      expect((await cli(['secrets', 'mine', 'rm', 'JIRA_TOKEN'], bobKey)).code).toBe(0);
      expect((await bob.get('/api/v1/me/secrets')).body.items).toEqual([]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('a second person connects on their own Connections page: their call answers as them; disconnecting drops it', async () => {
    // Not connected yet: Toolplane refuses bob's call and says where to consent.
    const refused = await whoami(bob);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UPSTREAM_CONSENT_REQUIRED');

    const tab = await open(bobKey);
    const { page, errors } = tab;
    await page.getByRole('link', { name: 'Connections' }).click();
    await row(page, 'upstream').getByText('not connected').waitFor();
    await connectInBrowser(tab, 'bob');
    await expect(row(page, 'upstream').textContent()).resolves.toMatch(/mcp:tools.*in \d+ min/);

    const answer = await whoami(bob);
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body.result)).toContain('bob');
    expect(JSON.stringify(answer.body.result)).not.toContain('alice');
    // The admin's own call answers as the admin's connection.
    expect(JSON.stringify((await whoami(h.api)).body.result)).toContain('alice');

    await row(page, 'upstream').getByRole('button', { name: 'Disconnect upstream' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('status').filter({ hasText: 'Disconnected from upstream.' }).waitFor();
    await row(page, 'upstream').getByText('not connected').waitFor();
    const after = await whoami(bob);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('UPSTREAM_CONSENT_REQUIRED');
    expect(errors).toEqual([]);
  });
});
