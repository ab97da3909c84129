import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { goTo, launchChromium, openConsole } from '../helpers/console-browser.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING } from '../helpers/upstreams.js';

/**
 * The register form checks what is typed without running it: the command a source would start
 * runs (and a `source.validated` audit event is written) only on "Test connection".
 */
describe('the console register form', () => {
  let h: Harness;
  let browser: Browser;
  const dir = mkdtempSync(join(tmpdir(), 'toolplane-form-'));
  const marker = join(dir, 'started');
  // server-everything behind a line that records each start of the command.
  const script = join(dir, 'marked-server.mjs');
  writeFileSync(script, `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(marker)}, 'started\\n');\nawait import(${JSON.stringify(EVERYTHING)});\n`);

  const validatedEvents = async () => (await h.api.get('/api/v1/audit-events?action=source.validated')).body.items.length as number;
  const starts = () => (existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean).length : 0);

  beforeAll(async () => {
    // Unsandboxed, so the marker is written where this test sees it (a sandboxed plugin has a /tmp of its own).
    h = await startHarness({ TOOLPLANE_SANDBOX: 'off' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checks each field as it is typed without starting the command, and starts it on Test connection', async () => {
    const { page, context, errors } = await openConsole(browser, h.url, h.adminKey);
    const checks: string[] = [];
    let answered = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/sources/validate')) checks.push(request.url());
    });
    page.on('requestfinished', (request) => {
      if (request.url().includes('/api/v1/sources/validate')) answered++;
    });
    await goTo(page, '/sources/new');
    // Typed key by key, with pauses long enough for the form to check what it has so far.
    const type = async (locator: ReturnType<typeof page.locator>, text: string) => {
      const before = answered;
      await locator.pressSequentially(text, { delay: 30 });
      for (const deadline = Date.now() + 15_000; answered === before; ) {
        if (Date.now() > deadline) throw new Error(`no check answered after typing ${JSON.stringify(text)}`);
        await page.waitForTimeout(50);
      }
    };
    await type(page.locator('#field-name'), 'marked');
    await type(page.getByLabel('Command'), 'node');
    await type(page.getByLabel('Arguments (one per line)'), `${script}\nstdio`);
    await page.getByText(/^Valid/).waitFor({ timeout: 15_000 });
    // Let any check still under way finish.
    await page.waitForTimeout(1500);
    expect(checks.length).toBeGreaterThanOrEqual(3);
    expect(checks.every((url) => new URL(url).searchParams.get('connect') === 'false')).toBe(true);
    expect(starts()).toBe(0);
    expect(await validatedEvents()).toBe(0);

    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(/connected in \d+ ms, \d+ tools found/).waitFor({ timeout: 30_000 });
    expect(starts()).toBe(1);
    expect(await validatedEvents()).toBe(1);
    await page.getByText(/Tools it would offer/).waitFor();

    // Changing the form again checks it, still without starting anything, and the test's result is no longer shown.
    await type(page.getByLabel('Description'), 'x');
    await page.getByText(/Test connection starts it/).waitFor({ timeout: 15_000 });
    expect(starts()).toBe(1);
    expect(await validatedEvents()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);
});
