import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, catalogReady, goTo, launchChromium, openConsole, type AxeViolation, type ConsoleTab } from '../helpers/console-browser.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, EVERYTHING_TOOL_COUNT, FIXTURES } from '../helpers/upstreams.js';

/**
 * The console in headless Chromium against a real Toolplane and real MCP servers: each page's
 * main flow, the roles' views, sign-out and axe-core on every page. The catalog at 10,000 tools is
 * timed in test/quiet/console-catalog-scale.e2e-spec.ts, alone on the machine.
 */
describe('the admin console', () => {
  let h: Harness;
  let browser: Browser;
  const keys = {} as Record<'operator' | 'auditor' | 'agent', string>;
  const tabs: ConsoleTab[] = [];
  const axeByPage: Record<string, Record<string, number>> = {};

  const open = async (key: string | undefined, options: Parameters<typeof openConsole>[3] = {}) => {
    const tab = await openConsole(browser, h.url, key, options);
    tabs.push(tab);
    return tab;
  };
  const go = goTo;
  /** axe on the page as it stands: no serious or critical violation; every impact counted for the record. */
  const accessible = async (page: Page, name: string) => {
    const violations: AxeViolation[] = await axeViolations(page);
    const counts: Record<string, number> = {};
    for (const violation of violations) counts[violation.impact ?? 'unknown'] = (counts[violation.impact ?? 'unknown'] ?? 0) + 1;
    axeByPage[name] = counts;
    expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
  };

  beforeAll(async () => {
    h = await startHarness();
    const registered = await h.api.post('/api/v1/sources', { name: 'everything', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] });
    expect(registered.status).toBe(201);
    // The conformance fixture answers audio too.
    const conformance = await h.api.post('/api/v1/sources', { name: 'conf', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [join(FIXTURES, 'conformance-server.mjs')] });
    expect(conformance.status).toBe(201);
    for (const [role, extra] of [['operator', {}], ['auditor', {}], ['agent', { allowedTools: ['everything__echo'] }]] as const) {
      const created = await h.api.post('/api/v1/api-keys', { name: `${role} key`, role, ...extra });
      expect(created.status).toBe(201);
      keys[role] = created.body.key;
    }
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    for (const tab of tabs) await tab.context.close().catch(() => undefined);
    await browser?.close();
    await h?.close();
    process.stdout.write(`console axe violations by page (impact: count): ${JSON.stringify(axeByPage)}\n`);
  });

  it('serves the console under a strict Content-Security-Policy, with the API’s Host rules', async () => {
    const index = await fetch(`${h.url}/console`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toContain('text/html');
    const csp = index.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(index.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await index.text();
    expect(html).not.toMatch(/<script>(?!<\/script>)|<script[^>]*>[^<]+<\/script>/);
    expect(html).not.toMatch(/https?:\/\//);
    // Any page of the console is the same document; its script and stylesheet are files.
    expect((await fetch(`${h.url}/console/sources/everything`)).status).toBe(200);
    expect((await fetch(`${h.url}/console/app.js`)).headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${h.url}/console/nothing.js`)).status).toBe(404);
    const foreignHost = await new Promise<number>((done, fail) => {
      const url = new URL(`${h.url}/console`);
      const request = httpRequest({ host: url.hostname, port: url.port, path: '/console', headers: { host: 'attacker.example' } }, (response) => {
        response.resume();
        done(response.statusCode!);
      });
      request.on('error', fail);
      request.end();
    });
    expect(foreignHost).toBe(403);
  });

  it('signs in with an API key, keeps it in session storage only, and forgets it on sign-out', async () => {
    const { page, errors } = await open(undefined);
    await accessible(page, 'sign-in');
    await page.getByLabel('API key').fill('tp_wrong_key_0000000000000000000000000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: /API key|key/i }).waitFor();
    await page.getByLabel('API key').fill(h.adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('toolplane.apiKey'))).toBe(h.adminKey);
    expect(await page.evaluate(() => (globalThis as any).localStorage.length)).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('toolplane.apiKey'))).toBeNull();
    // The refused key was answered 401; nothing else went wrong.
    expect(errors.filter((error) => !error.includes('401'))).toEqual([]);
  });

  it('shows the sources with health, circuit, protocol, tool count and last error, live', async () => {
    const { page, errors } = await open(h.adminKey);
    const row = page.getByRole('row').filter({ hasText: 'everything' });
    await row.getByText('healthy').waitFor();
    await expect(row.getByRole('cell').nth(5).textContent()).resolves.toBe(String(EVERYTHING_TOOL_COUNT));
    await expect(row.textContent()).resolves.toContain('legacy');
    // The count reads as English: "1 source", "2 sources".
    const registered: number = (await h.api.get('/api/v1/sources')).body.items.length;
    await page.getByText(registered === 1 ? /^1 source, / : new RegExp(`^${registered} sources, `)).waitFor();
    // A source registered elsewhere appears without a reload, failing, with its reason.
    await h.api.post('/api/v1/sources?wait=true', { name: 'broken', transport: 'stdio', command: 'node', args: ['-e', 'process.exit(3)'], refreshIntervalSeconds: 0 });
    const broken = page.getByRole('row').filter({ hasText: 'broken' });
    await broken.getByText('unhealthy').waitFor({ timeout: 10_000 });
    await expect(broken.textContent()).resolves.toContain('exited with code 3');
    await accessible(page, 'sources');
    expect(errors).toEqual([]);
  });

  it('shows every problem of a registration beside its field before saving, then registers', async () => {
    const { page, errors } = await open(h.adminKey);
    await go(page, '/sources/new');
    await page.locator('#field-name').fill('Not A Slug');
    await page.getByLabel('Command').fill('/no/such/program-xyz');
    await page.getByRole('button', { name: 'Add a variable' }).click();
    await page.locator('[id^="env-"][id$="-name"]').fill('lower case');
    await page.locator('#name-problems').waitFor({ timeout: 15_000 });
    await page.locator('#command-problems').filter({ hasText: 'program-xyz' }).waitFor({ timeout: 15_000 });
    await expect(page.locator('#name-problems').textContent()).resolves.toMatch(/slug/);
    await expect(page.getByText(/problems to fix before saving/).textContent()).resolves.toMatch(/^[2-9]\d* problems/);
    await expect(page.locator('#field-name').getAttribute('aria-invalid')).resolves.toBe('true');
    await accessible(page, 'register form (with problems)');
    expect((await h.api.get('/api/v1/sources/not-a-slug')).status).toBe(404);

    await page.locator('#field-name').fill('echoes');
    await page.getByLabel('Command').fill('node');
    await page.getByLabel('Arguments (one per line)').fill(`${EVERYTHING}\nstdio`);
    await page.getByRole('button', { name: /Remove environment/ }).click();
    await page.getByText(/^Valid/).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { name: /echoes/ }).waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: 'echo', exact: true }).waitFor();
    expect((await h.api.get('/api/v1/sources/echoes')).body.toolCount).toBe(EVERYTHING_TOOL_COUNT);
    expect(errors).toEqual([]);
  }, 60_000);

  it('says in the register form what each lifecycle means and costs', async () => {
    const { page, errors } = await open(h.adminKey);
    await go(page, '/sources/new');
    const lifecycle = page.getByLabel('Lifecycle');
    await expect(lifecycle.getAttribute('aria-describedby')).resolves.toBe('lifecycle-help');
    const help = await page.locator('#lifecycle-help').textContent();
    expect(help).toMatch(/transient: a new process for every call/i);
    expect(help).toMatch(/singleton: one process kept running/i);
    expect(help).toMatch(/its home/);
    expect(errors).toEqual([]);
  });

  it('changes a source through its edit form, and checks remote sources as they are typed', async () => {
    const { page, errors } = await open(h.adminKey);
    await go(page, '/sources/echoes/edit');
    await page.getByLabel('Description').fill('server-everything, second copy');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('server-everything, second copy').waitFor();
    expect((await h.api.get('/api/v1/sources/echoes')).body.description).toBe('server-everything, second copy');

    await go(page, '/sources/new');
    await page.locator('#field-name').fill('remote');
    await page.getByLabel('Transport').selectOption('streamable-http');
    await page.getByLabel('URL').fill('ftp://example.invalid/mcp');
    await page.getByRole('button', { name: 'Add a header' }).click();
    await page.locator('[id^="headers-"][id$="-name"]').fill('Authorization');
    await page.locator('[id^="headers-"][id$="-mode"]').selectOption('secret');
    await page.locator('#url-problems').waitFor({ timeout: 15_000 });
    await accessible(page, 'register form (remote)');

    // A manifest read in the browser fills the form; its secret variable gets a secret picker.
    await go(page, '/sources');
    await go(page, '/sources/new');
    const plugin = { name: 'everything', version: '1.0.0', packages: [{ name: 'everything', transport_type: 'stdio', command: ['node', EVERYTHING, 'stdio'], environment_variables: [{ name: 'API_TOKEN', required: true, secret: true }] }] };
    await page.getByLabel(/Fill from a manifest/).setInputFiles({ name: 'plugin.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(plugin)) });
    await page.getByText(/Filled from plugin.json. Pick a stored secret for API_TOKEN/).waitFor();
    await expect(page.getByLabel('Command').inputValue()).resolves.toBe('node');
    await expect(page.getByLabel('Arguments (one per line)').inputValue()).resolves.toBe(`${EVERYTHING}\nstdio`);
    await expect(page.locator('[id^="env-"][id$="-mode"]').inputValue()).resolves.toBe('secret');
    expect(errors).toEqual([]);
  }, 60_000);

  it('refreshes, disables, enables and removes a source from its page, naming what stops', async () => {
    const { page, errors } = await open(h.adminKey);
    await go(page, '/sources/echoes');
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await page.getByText(/Refreshed: .*unchanged/).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('button', { name: 'Enable' }).waitFor();
    expect((await h.api.get('/api/v1/sources/echoes')).body.enabled).toBe(false);
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('button', { name: 'Disable' }).waitFor();
    await page.getByText('source.refreshed').first().waitFor();
    await accessible(page, 'source');
    await page.getByRole('button', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.textContent()).resolves.toContain(`${EVERYTHING_TOOL_COUNT} tools leave the catalog`);
    await accessible(page, 'source (remove confirmation)');
    await dialog.getByRole('button', { name: 'Remove echoes' }).click();
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
    expect((await h.api.get('/api/v1/sources/echoes')).status).toBe(404);
    expect(errors).toEqual([]);
  }, 60_000);

  it('searches the catalog as you type and filters it', async () => {
    const { page, errors } = await open(h.adminKey);
    await go(page, '/catalog');
    await catalogReady(page, { q: '' });
    await page.getByRole('list', { name: 'Tools' }).getByRole('link').first().waitFor();
    await page.getByLabel('Search').fill('tiny image');
    await catalogReady(page, { q: 'tiny image' });
    // Ranked as the API ranks it: the tool matching both words first, then those matching one.
    const ranked = (await h.api.get('/api/v1/tools?q=tiny%20image&limit=500')).body.items.map((tool: any) => tool.qualifiedName);
    expect(ranked[0]).toBe('everything__get-tiny-image');
    const listed = await page.getByRole('list', { name: 'Tools' }).getByRole('link').allTextContents();
    expect(listed).toEqual(ranked);
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Read-only').selectOption('true');
    await catalogReady(page, { q: '', readOnly: 'true' });
    const expected = (await h.api.get('/api/v1/tools?readOnly=true&limit=500')).body.items.map((tool: any) => tool.qualifiedName);
    expect(expected.length).toBeGreaterThan(0);
    const shown = await page.getByRole('list', { name: 'Tools' }).getByRole('link').allTextContents();
    expect(shown.sort()).toEqual(expected.sort());
    await accessible(page, 'catalog');

    // A change of the catalog (its ETag) is offered without pulling the list from under the reader.
    expect((await h.api.patch('/api/v1/tools/everything__get-tiny-image', { enabled: false })).status).toBe(200);
    await page.getByText('The catalog has changed.').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Show the new list' }).click();
    await page.waitForFunction(() => ![...(globalThis as any).document.querySelectorAll('.virtual-row a')].some((link: any) => link.textContent === 'everything__get-tiny-image'));
    expect((await h.api.patch('/api/v1/tools/everything__get-tiny-image', { enabled: true })).status).toBe(200);
    expect(errors).toEqual([]);
  }, 60_000);

  it('shows a tool readably with the formats an agent receives, and calls it from a form built from its schema', async () => {
    const { page, errors } = await open(h.adminKey);
    await go(page, '/catalog/everything__echo');
    await page.getByRole('table', { name: 'Input parameters' }).getByRole('cell', { name: 'message', exact: true }).waitFor();
    await page.getByRole('button', { name: 'OpenAI' }).click();
    await expect(page.getByLabel('openai definition').textContent()).resolves.toContain('"type": "function"');
    await page.getByRole('button', { name: 'Anthropic' }).click();
    await expect(page.getByLabel('anthropic definition').textContent()).resolves.toContain('"input_schema"');
    await accessible(page, 'tool');

    // Text.
    await page.getByLabel(/^message/).fill('from the console');
    await page.getByRole('button', { name: 'Call the tool' }).click();
    await page.getByText('Echo: from the console').waitFor();
    const executionId = await page.locator('.result-head a').textContent();
    expect((await h.api.get(`/api/v1/executions/${executionId}`)).body.status).toBe('succeeded');
    await accessible(page, 'tool (try it, text result)');

    // An image.
    await go(page, '/catalog/everything__get-tiny-image');
    await page.getByRole('button', { name: 'Call the tool' }).click();
    const image = page.getByRole('img', { name: /Image returned by the tool/ });
    await image.waitFor();
    expect(await image.evaluate((element: any) => element.complete && element.naturalWidth > 0)).toBe(true);

    // Structured content, from an enum offered as a select.
    await go(page, '/catalog/everything__get-structured-content');
    await page.getByLabel(/^location/).selectOption({ label: 'Chicago' });
    await page.getByRole('button', { name: 'Call the tool' }).click();
    await expect(page.getByLabel('Structured content').textContent()).resolves.toContain('temperature');
    await expect(page.locator('.result').getAttribute('data-status')).resolves.toBe('succeeded');

    // Audio.
    await go(page, '/catalog/conf__test_audio_content');
    await page.getByRole('button', { name: 'Call the tool' }).click();
    await page.locator('audio[src^="data:audio/wav;base64,"]').waitFor({ state: 'attached' });

    // An embedded resource, from the schema's defaults.
    await go(page, '/catalog/everything__get-resource-reference');
    await expect(page.getByLabel(/^resourceId/).inputValue()).resolves.toBe('1');
    await page.getByRole('button', { name: 'Call the tool' }).click();
    await page.locator('.result-resource').filter({ hasText: 'Resource' }).first().waitFor();

    // Progress while a call runs.
    await go(page, '/catalog/everything__trigger-long-running-operation');
    await page.getByLabel(/^duration/).fill('2');
    await page.getByLabel(/^steps/).fill('2');
    await page.getByRole('button', { name: 'Call the tool' }).click();
    await page.getByText(/Running for \d+\.\d s/).waitFor();
    // The upstream's progress notifications, as they come.
    await page.getByText('Step 1 of 2').waitFor();
    await page.locator('.result[data-status="succeeded"]').waitFor({ timeout: 15_000 });

    // The raw JSON editor, and a refused call shown with its problems.
    await go(page, '/catalog/everything__get-sum');
    await page.getByLabel('Edit the arguments as JSON').check();
    await page.getByLabel('Arguments (JSON)').fill('{"a": "two"}');
    await page.getByRole('button', { name: 'Call the tool' }).click();
    await page.getByText('INVALID_ARGUMENTS').waitFor();
    await expect(page.locator('.result').getAttribute('data-status')).resolves.toBe('invalid_arguments');
    expect(errors.filter((error) => !error.includes('400'))).toEqual([]);
  }, 60_000);

  it('follows new calls live, shows one call in full, and charts calls, errors and latency', async () => {
    const { page, errors } = await open(h.adminKey);
    await h.api.post('/api/v1/tools/everything__get-sum/invoke', { arguments: { a: 'two' } });
    await go(page, '/executions');
    await page.getByRole('table').waitFor();
    // An interceptor on the call, which its page lists.
    expect((await h.api.post('/api/v1/interceptors', { name: 'mask-emails', kind: 'redact', scope: { tools: ['everything__echo'] }, detect: ['email'] })).status).toBe(201);
    await h.api.post('/api/v1/tools/everything__echo/invoke', { arguments: { message: 'live one' }, timeoutMs: 10_000 });
    const latest = (await h.api.get('/api/v1/executions?limit=1')).body.items[0];
    const link = page.locator(`a[href="/console/executions/${latest.id}"]`);
    await link.waitFor({ timeout: 10_000 });
    await page.getByLabel('Status').selectOption('invalid_arguments');
    await page.waitForFunction(() => {
      const rows = [...(globalThis as any).document.querySelectorAll('tbody tr')].map((row: any) => row.textContent as string);
      return rows.length > 0 && rows.every((text) => text.includes('invalid arguments'));
    });
    await accessible(page, 'executions');
    await go(page, `/executions/${latest.id}`);
    await page.getByText('live one').first().waitFor();
    await expect(page.getByRole('main').textContent()).resolves.toContain('Echo: live one');
    const interceptors = page.getByRole('heading', { name: 'Interceptors' }).locator('xpath=following-sibling::table[1]');
    await expect(interceptors.getByRole('row').nth(1).textContent()).resolves.toMatch(/^mask-emails \(redact\)postallow—\d/);
    await accessible(page, 'execution');
    await go(page, '/stats');
    await page.getByRole('figure').first().waitFor();
    // Each chart draws its canvas once its figure is on the page and its data arrived.
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('canvas').length >= 4, undefined, { timeout: 10_000 });
    expect(await page.locator('canvas').count()).toBeGreaterThanOrEqual(4);
    await page.getByRole('cell', { name: 'everything__echo' }).waitFor();
    await accessible(page, 'charts');
    expect(errors).toEqual([]);
  });

  it('shows the audit trail with the chain verified, and creates and revokes API keys', async () => {
    const { page, errors } = await open(h.adminKey);
    await go(page, '/audit');
    await page.getByText(/The chain is intact/).waitFor();
    await page.getByText(/The execution history’s chain is intact/).waitFor();
    await page.getByLabel('Action').selectOption('source.registered');
    await page.waitForFunction(() => {
      const actions = [...(globalThis as any).document.querySelectorAll('tbody tr td:nth-child(4)')].map((cell: any) => cell.textContent as string);
      return actions.length > 0 && actions.every((action) => action === 'source.registered');
    });
    await accessible(page, 'audit');
    await go(page, '/keys');
    await page.getByLabel('Name').fill('console made');
    await page.getByLabel('Role').selectOption('auditor');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = await page.locator('.secret-value').textContent();
    expect(shown).toMatch(/^tp_/);
    expect((await fetch(`${h.url}/api/v1/access/me`, { headers: { authorization: `Bearer ${shown}` } })).status).toBe(200);
    await page.getByRole('button', { name: 'Copy key' }).waitFor();
    await accessible(page, 'API keys');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.locator('.secret-value').count()).toBe(0);
    await page.getByRole('button', { name: 'Revoke console made' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Revoked console made.').waitFor();
    expect((await fetch(`${h.url}/api/v1/access/me`, { headers: { authorization: `Bearer ${shown}` } })).status).toBe(401);
    expect(errors).toEqual([]);
  });

  it('shows each role only what it may use', async () => {
    const operator = await open(keys.operator);
    await operator.page.getByRole('link', { name: 'Register a source' }).waitFor();
    expect(await operator.page.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    expect(await operator.page.getByRole('link', { name: 'Audit' }).count()).toBe(0);
    await go(operator.page, '/catalog/everything__echo');
    await operator.page.getByRole('button', { name: 'Disable tool' }).waitFor();
    expect(await operator.page.getByRole('heading', { name: 'Try it' }).count()).toBe(0);
    expect(operator.errors).toEqual([]);

    const auditor = await open(keys.auditor);
    await auditor.page.getByRole('row').filter({ hasText: 'everything' }).waitFor();
    expect(await auditor.page.getByRole('link', { name: 'Register a source' }).count()).toBe(0);
    await go(auditor.page, '/sources/everything');
    await auditor.page.getByRole('heading', { name: 'Recent executions' }).waitFor();
    expect(await auditor.page.getByRole('button', { name: /Refresh|Disable|Remove/ }).count()).toBe(0);
    await go(auditor.page, '/catalog/everything__echo');
    await auditor.page.getByRole('heading', { name: 'Parameters' }).waitFor();
    expect(await auditor.page.getByRole('button', { name: /Disable tool|Call the tool/ }).count()).toBe(0);
    await go(auditor.page, '/audit');
    await auditor.page.getByText(/The chain is intact/).waitFor();
    expect(auditor.errors).toEqual([]);

    const agent = await open(keys.agent);
    await agent.page.getByRole('heading', { name: 'Catalog' }).waitFor();
    await agent.page.locator('[data-catalog-state="ready"]').waitFor();
    expect(await agent.page.getByRole('list', { name: 'Tools' }).getByRole('listitem').allTextContents()).toEqual([expect.stringContaining('everything__echo')]);
    expect(await agent.page.getByRole('link', { name: 'Sources' }).count()).toBe(0);
    await go(agent.page, '/catalog/everything__echo');
    await agent.page.getByRole('button', { name: 'Call the tool' }).waitFor();
    expect(await agent.page.getByRole('button', { name: 'Disable tool' }).count()).toBe(0);
    await accessible(agent.page, 'tool (restricted agent)');
    // A page the role cannot read says so.
    await go(agent.page, '/keys');
    await agent.page.getByText('Not allowed', { exact: true }).waitFor();
    expect(agent.errors.filter((error) => !error.includes('403'))).toEqual([]);
  }, 60_000);

  it('warns admins and operators on every page when plugins run without a sandbox, with the reason and the fix', async () => {
    const banner = (page: Page) => page.getByRole('alert').filter({ hasText: 'Plugins run without a sandbox' });
    /** Signs in and waits until the shell has its answer from /health/ready (when the role may read it). */
    const signedIn = async (url: string, key: string, readsHealth: boolean) => {
      const tab = await openConsole(browser, url, undefined);
      tabs.push(tab);
      const health = readsHealth ? tab.page.waitForResponse((response) => response.url().endsWith('/health/ready')) : undefined;
      await tab.page.getByLabel('API key').fill(key);
      await tab.page.getByRole('button', { name: 'Sign in' }).click();
      await tab.page.getByRole('button', { name: 'Sign out' }).waitFor();
      await health;
      return tab;
    };

    expect((await h.api.get('/health/ready')).body.details.sandbox.enabled).toBe(true);
    const sandboxed = await signedIn(h.url, h.adminKey, true);
    await sandboxed.page.getByRole('heading', { name: 'Sources' }).waitFor();
    expect(await banner(sandboxed.page).count()).toBe(0);

    const peer = await h.startPeer({ TOOLPLANE_SANDBOX: 'off' });
    try {
      const admin = await signedIn(peer.url, h.adminKey, true);
      await banner(admin.page).waitFor();
      const text = await banner(admin.page).textContent();
      expect(text).toContain('TOOLPLANE_SANDBOX=off');
      expect(text).toContain("run as Toolplane's own user");
      expect(text).toContain('unset TOOLPLANE_SANDBOX');
      await accessible(admin.page, 'sources (plugins without a sandbox)');
      // On every page, not only the first.
      await go(admin.page, '/catalog');
      await admin.page.getByRole('heading', { name: 'Catalog' }).waitFor();
      await banner(admin.page).waitFor();
      expect(admin.errors).toEqual([]);

      const operator = await signedIn(peer.url, keys.operator, true);
      await banner(operator.page).waitFor();

      // A role that may not read Toolplane's state (ops:read) is not told about it.
      const agent = await signedIn(peer.url, keys.agent, false);
      await agent.page.locator('[data-catalog-state="ready"]').waitFor();
      expect(await banner(agent.page).count()).toBe(0);
    } finally {
      await peer.close();
    }
  }, 90_000);

  it('says so when the key is revoked or expired, or Toolplane is unreachable', async () => {
    const created = await h.api.post('/api/v1/api-keys', { name: 'short lived', role: 'auditor' });
    const tab = await open(created.body.key);
    await h.api.delete(`/api/v1/api-keys/${created.body.id}`);
    await tab.page.getByText('Your key was revoked').waitFor({ timeout: 15_000 });
    expect(await tab.page.evaluate(() => (globalThis as any).sessionStorage.getItem('toolplane.apiKey'))).toBeNull();

    const expiring = await h.api.post('/api/v1/api-keys', { name: 'expired', role: 'auditor', expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await h.sql(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [expiring.body.id]);
    const late = await open(undefined);
    await late.page.getByLabel('API key').fill(expiring.body.key);
    await late.page.getByRole('button', { name: 'Sign in' }).click();
    await late.page.getByText('This key has expired. Ask an admin for a new one.').waitFor();

    const offline = await open(h.adminKey);
    await offline.context.route('**/api/v1/**', (route) => route.abort('connectionrefused'));
    await go(offline.page, '/audit');
    await offline.page.getByText('Toolplane is unreachable').first().waitFor();
  });

  it('works in the dark theme and on a narrow window', async () => {
    const { page, errors } = await open(h.adminKey, { colorScheme: 'dark', width: 420, height: 800 });
    await page.getByRole('row').filter({ hasText: 'everything' }).waitFor();
    await accessible(page, 'sources (dark, narrow)');
    await go(page, '/catalog/everything__get-structured-content');
    await page.getByRole('heading', { name: 'Try it' }).waitFor();
    await accessible(page, 'tool (dark, narrow)');
    const overflow = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // Keyboard: the skip link comes first, then the navigation.
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => (globalThis as any).document.activeElement.textContent)).resolves.toBe('Skip to content');
    expect(errors).toEqual([]);
  });

  it("names a source's server with the version it gave, and without one when it gave none", async () => {
    const versionless = await h.api.post('/api/v1/sources?wait=true', { name: 'versionless', transport: 'stdio', command: 'node', args: [join(FIXTURES, 'modern-server.mjs'), 'stdio'], env: { MODERN_SERVER_VERSION: '' } });
    expect(versionless.status).toBe(201);
    expect(versionless.body.serverInfo).toEqual({ name: 'modern-fixture' });
    const { page, errors } = await open(h.adminKey);
    const protocolOf = async (source: string) => {
      await go(page, `/sources/${source}`);
      const fact = page.locator('dt', { hasText: 'Protocol' }).locator('xpath=following-sibling::dd[1]');
      await fact.getByText(/\(/).waitFor();
      return fact.textContent();
    };
    await expect(protocolOf('versionless')).resolves.toMatch(/\), modern-fixture$/);
    await expect(protocolOf('conf')).resolves.toMatch(/\), conformance-fixture 1\.0\.0$/);
    await h.api.delete('/api/v1/sources/versionless');
    expect(errors).toEqual([]);
  });
});
