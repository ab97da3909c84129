import type { Browser, Page } from 'playwright-core';
import { axeViolations, goTo, launchChromium, openConsole, type ConsoleTab } from '../helpers/console-browser.js';
import { SUITE_TAG } from '../helpers/processes.js';
import { makeApi, startHarness, type Api, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING } from '../helpers/upstreams.js';

/**
 * The console's Approvals inbox against a real Toolplane and server-everything: an approval
 * interceptor holds an agent's calls; a reviewer opens each to the call it would make (tool,
 * description, annotations, arguments, the caller's recent calls) and approves or denies it with
 * a comment; the agent's execution then ends as decided. The caller cannot decide its own call.
 */
describe('the console: the approvals inbox', () => {
  let h: Harness;
  let browser: Browser;
  let agent: Api;
  const keys = {} as Record<'agent' | 'reviewer', string>;
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
  /** An agent's call that the interceptor holds: 202, pending_approval. */
  const held = async (message: string) => {
    const answer = await agent.post('/api/v1/tools/everything__echo/invoke', { arguments: { message } });
    expect(answer.status).toBe(202);
    expect(answer.body.status).toBe('pending_approval');
    return answer.body.id as string;
  };
  const finalOf = async (id: string) => {
    for (let i = 0; i < 100; i++) {
      const answer = await agent.get(`/api/v1/executions/${id}`);
      if (!['working', 'pending_approval'].includes(answer.body.status)) return answer.body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`execution ${id} did not end`);
  };

  beforeAll(async () => {
    h = await startHarness();
    expect((await h.api.post('/api/v1/sources', { name: 'everything', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio', SUITE_TAG] })).status).toBe(201);
    for (const role of ['agent', 'reviewer'] as const) keys[role] = (await h.api.post('/api/v1/api-keys', { name: `${role} key`, role })).body.key;
    agent = makeApi(h.url, keys.agent);
    expect((await agent.post('/api/v1/tools/everything__get-sum/invoke', { arguments: { a: 1, b: 2 } })).status).toBe(200);
    const interceptor = await h.api.post('/api/v1/interceptors', {
      name: 'ask-a-person',
      kind: 'approval',
      scope: { tools: ['everything__echo'] },
      approvers: { roles: ['reviewer', 'admin'] },
      timeoutMs: 600_000,
    });
    expect(interceptor.status).toBe(201);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    for (const tab of tabs) await tab.context.close().catch(() => undefined);
    await browser?.close();
    await h?.close();
  });

  it('lists the pending calls, shows one in full, and approves it with a comment: the call then runs', async () => {
    const id = await held('deploy to production');
    const { page, errors } = await open(keys.reviewer);
    await page.getByRole('link', { name: 'Approvals' }).click();
    await page.getByRole('heading', { name: 'Approvals' }).waitFor();
    const item = page.getByRole('article').filter({ hasText: 'everything__echo' });
    await item.getByText('called by agent key').waitFor();
    await item.getByRole('button', { name: /Open/ }).click();
    // The call as it would run: the tool described, its annotations, the arguments, the caller's recent calls.
    await item.getByText('Echoes back the input', { exact: false }).waitFor();
    await item.getByRole('list', { name: 'Annotations' }).waitFor();
    await expect(item.getByLabel('Arguments of the call (secrets redacted)').textContent()).resolves.toContain('deploy to production');
    await item.getByRole('region', { name: 'Recent calls of agent key' }).getByText('everything__get-sum').waitFor();
    await accessible(page);
    await item.getByLabel('Comment').fill('checked with the team');
    await item.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('status').filter({ hasText: 'Approved the call of everything__echo by agent key.' }).waitFor();
    await page.getByText('No pending approvals.').waitFor();
    const final = await finalOf(id);
    expect(final).toMatchObject({ status: 'succeeded', result: { content: [{ type: 'text', text: 'Echo: deploy to production' }] } });
    const run = final.interceptors.find((r: { name: string }) => r.name === 'ask-a-person');
    expect(run.approval).toMatchObject({ decision: 'approved', comment: 'checked with the team' });
    await page.getByLabel('Status').selectOption('approved');
    await page.getByRole('article').filter({ hasText: 'everything__echo' }).first().waitFor();
    expect(errors).toEqual([]);
  });

  it('denies a call: it ends refused and nothing reached the upstream', async () => {
    const id = await held('drop the database');
    const { page, errors } = await open(keys.reviewer);
    await goTo(page, '/approvals');
    const item = page.getByRole('article').filter({ hasText: 'everything__echo' });
    await item.getByRole('button', { name: /Open/ }).click();
    await item.getByLabel('Comment').fill('not today');
    await item.getByRole('button', { name: 'Deny' }).click();
    await page.getByRole('status').filter({ hasText: 'Denied the call' }).waitFor();
    const final = await finalOf(id);
    expect(final).toMatchObject({ status: 'rejected', error: { code: 'APPROVAL_DENIED' }, attempts: 0 });
    expect(errors).toEqual([]);
  });

  it("tells the caller that it cannot decide its own call", async () => {
    const answer = await h.api.post('/api/v1/tools/everything__echo/invoke', { arguments: { message: 'mine' } });
    expect(answer.status).toBe(202);
    const { page } = await open(h.adminKey);
    await goTo(page, '/approvals');
    const item = page.getByRole('article').filter({ hasText: 'called by admin' });
    await item.getByRole('button', { name: /Open/ }).click();
    await item.getByRole('button', { name: 'Approve' }).click();
    await item.getByRole('alert').filter({ hasText: /^Not allowed: / }).waitFor();
  });
});
