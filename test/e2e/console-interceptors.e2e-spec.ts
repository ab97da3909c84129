import type { Browser, Page } from 'playwright-core';
import { axeViolations, goTo, launchChromium, openConsole, type ConsoleTab } from '../helpers/console-browser.js';
import { makeApi, startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING } from '../helpers/upstreams.js';

/**
 * The console's Interceptors page against a real Toolplane and server-everything: a redact
 * interceptor created in the form and tried on a sample result (masks and counts), a deny
 * interceptor whose problems stand beside their fields, an edit, a removal, and who sees the page.
 */
describe('the console: interceptors', () => {
  let h: Harness;
  let browser: Browser;
  let agentKey: string;
  const tabs: ConsoleTab[] = [];

  const open = async (key: string, options: Parameters<typeof openConsole>[3] = {}) => {
    const tab = await openConsole(browser, h.url, key, options);
    tabs.push(tab);
    return tab;
  };
  const accessible = async (page: Page) => {
    const violations = await axeViolations(page);
    expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
  };

  beforeAll(async () => {
    h = await startHarness();
    expect((await h.api.post('/api/v1/sources', { name: 'everything', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] })).status).toBe(201);
    agentKey = (await h.api.post('/api/v1/api-keys', { name: 'agent key', role: 'agent' })).body.key;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    for (const tab of tabs) await tab.context.close().catch(() => undefined);
    await browser?.close();
    await h?.close();
  });

  it('creates a redact interceptor and tries it on a sample result: [email] and [card] with their counts; nothing called', async () => {
    const { page, errors } = await open(h.adminKey);
    await page.getByRole('link', { name: 'Interceptors' }).click();
    await page.getByRole('heading', { name: 'Interceptors', exact: true }).waitFor();
    await page.getByText('No interceptors yet.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('mask-pii');
    await page.getByLabel('Description', { exact: true }).fill('No personal data in answers');
    await page.getByLabel('Kind').selectOption('redact');
    await expect(page.getByLabel('Phase').inputValue()).resolves.toBe('post');
    await page.getByLabel('Source', { exact: true }).fill('everything');
    // Phone numbers are left to another interceptor: every other detector stays on.
    await page.getByLabel(/Phone numbers/).uncheck();

    const sample = page.getByRole('region', { name: 'Try on a sample call' });
    await sample.getByLabel('Tool', { exact: true }).fill('everything__echo');
    await sample.getByText(/Required arguments: message/).waitFor();
    await sample.getByLabel('Sample arguments (JSON)').fill('{"message": "who paid?"}');
    await sample.getByLabel('Sample result text').fill('Ada <ada@example.com> paid with 4111 1111 1111 1111, call +44 20 7946 0958.');
    await sample.getByRole('button', { name: 'Run the preview' }).click();
    const answer = sample.getByRole('region', { name: 'What the interceptor did' });
    await answer.getByText('modify', { exact: true }).waitFor();
    const after = answer.getByRole('group', { name: 'Result after' });
    await expect(after.locator('pre.result-text').textContent()).resolves.toBe('Ada <[email]> paid with [card], call +44 20 7946 0958.');
    const counts = answer.getByRole('table', { name: 'Found and changed' });
    await expect(counts.getByRole('row').filter({ hasText: 'email' }).locator('td').nth(1).textContent()).resolves.toBe('1');
    await expect(counts.getByRole('row').filter({ hasText: 'card' }).locator('td').nth(1).textContent()).resolves.toBe('1');
    await expect(answer.getByRole('list', { name: 'Changed paths' }).textContent()).resolves.toContain('content[0].text');
    await accessible(page);
    // A preview stores nothing and calls nothing.
    expect((await h.api.get('/api/v1/interceptors/mask-pii')).status).toBe(404);
    expect((await h.api.get('/api/v1/executions')).body.items).toEqual([]);

    await page.getByRole('button', { name: 'Create interceptor' }).click();
    await page.getByRole('heading', { name: 'Interceptor mask-pii' }).waitFor();
    expect((await h.api.get('/api/v1/interceptors/mask-pii')).body).toMatchObject({
      kind: 'redact',
      phase: 'post',
      description: 'No personal data in answers',
      scope: { source: 'everything' },
      detect: ['email', 'card', 'iban', 'secret'],
      enabled: true,
    });
    // The interceptor is in force: a call of echo answers its message masked.
    const call = await h.api.post('/api/v1/tools/everything__echo/invoke', { arguments: { message: 'mail ada@example.com' } });
    expect(call.body.result.content).toEqual([{ type: 'text', text: 'Echo: mail [email]' }]);
    expect(errors).toEqual([]);
  }, 60_000);

  it('shows the problems of a deny interceptor beside their fields: a pattern RE2 refuses, a missing message; then saves, lists, edits and deletes it', async () => {
    const { page, errors } = await open(h.adminKey);
    await goTo(page, '/interceptors');
    await page.getByRole('heading', { name: 'Interceptors', exact: true }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('no-secrets');
    await expect(page.getByLabel('Kind').inputValue()).resolves.toBe('deny');
    await page.getByLabel('Tool-name patterns').fill('everything__*');
    const rule = page.getByRole('group', { name: 'Rule 1' });
    await rule.getByLabel('Argument').fill('message');
    await rule.getByLabel('Condition').selectOption('pattern');
    await rule.getByLabel('Pattern (RE2)').fill('(?=secret)');
    await page.getByRole('button', { name: 'Create interceptor' }).click();
    await page.locator('#rule-0-value[aria-invalid="true"]').waitFor();
    await expect(page.locator('#rule-0-value-problems').textContent()).resolves.toMatch(/RE2/);
    await expect(page.locator('#rule-0-message-problems').textContent()).resolves.toMatch(/is required/);
    expect(await page.locator('#rule-0-message').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#rule-0-message').getAttribute('aria-describedby')).toContain('rule-0-message-problems');
    await page.locator('form .notice').filter({ hasText: 'The interceptor is invalid.' }).waitFor();
    expect((await h.api.get('/api/v1/interceptors/no-secrets')).status).toBe(404);
    await accessible(page);

    // The sample panel takes the form as it is: its problems stand beside the same fields.
    const sample = page.getByRole('region', { name: 'Try on a sample call' });
    await rule.getByLabel('Message').fill('No secrets in messages.');
    await sample.getByLabel('Tool', { exact: true }).fill('everything__echo');
    await sample.getByLabel('Sample arguments (JSON)').fill('{"message": "the secret is 42"}');
    await sample.getByRole('button', { name: 'Run the preview' }).click();
    await sample.getByText('The interceptor has problems: they are shown beside its fields.').waitFor();
    await expect(page.locator('#rule-0-value-problems').textContent()).resolves.toMatch(/RE2/);
    await expect(page.locator('#rule-0-message-problems').count()).resolves.toBe(0);

    await rule.getByLabel('Pattern (RE2)').fill('secret');
    await sample.getByRole('button', { name: 'Run the preview' }).click();
    const answer = sample.getByRole('region', { name: 'What the interceptor did' });
    await answer.getByText('INTERCEPTOR_DENIED').waitFor();
    await answer.getByText('Interceptor "no-secrets" refused the call: No secrets in messages.').waitFor();
    await expect(page.locator('#rule-0-value-problems').count()).resolves.toBe(0);

    await page.getByRole('button', { name: 'Create interceptor' }).click();
    await page.getByRole('heading', { name: 'Interceptor no-secrets' }).waitFor();
    expect((await h.api.get('/api/v1/interceptors/no-secrets')).body).toMatchObject({ kind: 'deny', scope: { tools: ['everything__*'] }, rules: [{ argument: 'message', pattern: 'secret', message: 'No secrets in messages.' }] });

    // Listed by phase and order: the pre interceptor first.
    await page.getByRole('link', { name: 'All interceptors' }).click();
    const table = page.getByRole('region', { name: 'Interceptors table' });
    const rows = table.getByRole('row');
    await rows.filter({ hasText: 'no-secrets' }).waitFor();
    await expect(rows.nth(1).textContent()).resolves.toMatch(/^pre0no-secretsdenytools everything__\*denyenabled$/);
    await expect(rows.nth(2).textContent()).resolves.toMatch(/^post0mask-pii/);
    await accessible(page);

    // Edit: a second rule with a range, another order, disabled.
    await rows.filter({ hasText: 'no-secrets' }).getByRole('link', { name: 'no-secrets' }).click();
    await page.getByRole('heading', { name: 'Edit interceptor' }).waitFor();
    await page.getByLabel('Order').fill('-5');
    await page.getByRole('button', { name: 'Add rule' }).click();
    const second = page.getByRole('group', { name: 'Rule 2' });
    await second.getByLabel('Tools').fill('everything__get-sum');
    await second.getByLabel('Argument').fill('a');
    await second.getByLabel('Condition').selectOption('range');
    await second.getByLabel('Minimum').fill('10');
    await second.getByLabel('Maximum').fill('1');
    await second.getByLabel('Message').fill('a out of range');
    await page.getByRole('button', { name: 'Save interceptor' }).click();
    await expect(page.locator('#rule-1-range-problems').textContent()).resolves.toMatch(/min \(10\) must not be above max \(1\)/);
    await second.getByLabel('Minimum').fill('0');
    await page.getByLabel('Enabled').uncheck();
    await page.getByRole('button', { name: 'Save interceptor' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    expect((await h.api.get('/api/v1/interceptors/no-secrets')).body).toMatchObject({
      order: -5,
      enabled: false,
      version: 2,
      rules: [{ argument: 'message', pattern: 'secret' }, { tools: ['everything__get-sum'], argument: 'a', range: { min: 0, max: 1 }, message: 'a out of range' }],
    });

    await page.getByRole('button', { name: 'Delete interceptor' }).click();
    await page.getByRole('dialog', { name: 'Delete interceptor no-secrets?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Interceptors', exact: true }).waitFor();
    await table.getByRole('row').filter({ hasText: 'mask-pii' }).waitFor();
    await expect(table.getByRole('row').filter({ hasText: 'no-secrets' }).count()).resolves.toBe(0);
    expect((await h.api.get('/api/v1/interceptors/no-secrets')).status).toBe(404);
    expect(errors.filter((error) => !error.includes('400'))).toEqual([]);
  }, 60_000);

  it('offers the page only to interceptors:manage, and works on a narrow window', async () => {
    const admin = await open(h.adminKey, { width: 380, height: 800 });
    await goTo(admin.page, '/interceptors/mask-pii');
    await admin.page.getByRole('heading', { name: 'Edit interceptor' }).waitFor();
    const overflow = await admin.page.evaluate(() => {
      const doc = (globalThis as any).document;
      return doc.documentElement.scrollWidth - doc.documentElement.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);

    const agent = await open(agentKey);
    await expect(agent.page.getByRole('link', { name: 'Interceptors' }).count()).resolves.toBe(0);
    await goTo(agent.page, '/interceptors');
    await agent.page.getByText('Not allowed', { exact: true }).waitFor();
    expect((await makeApi(h.url, agentKey).get('/api/v1/interceptors')).status).toBe(403);
  });
});
