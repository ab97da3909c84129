import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { axeViolations, catalogReady, goTo, launchChromium, openConsole, type ConsoleTab } from '../helpers/console-browser.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES } from '../helpers/upstreams.js';

/**
 * The console's catalog at 10,000 tools, timed: interactive within a second, a filter shown within
 * 100 ms. It runs here, alone on the machine (test/quiet), since beside the other suites on two
 * cores the same page measured 120–200 ms for what takes 40–90 ms.
 */
describe('the admin console at 10,000 tools', () => {
  const SOURCES = 10;
  const PER_SOURCE = 1000;
  let h: Harness;
  let browser: Browser;
  let dir: string;
  const tabs: ConsoleTab[] = [];

  beforeAll(async () => {
    h = await startHarness();
    // The benchmark's inventory: varied names, titles, descriptions and schemas.
    const inventory = '../../bench/lib/catalog-inventory.mjs';
    const { catalogTools } = (await import(inventory)) as { catalogTools: (index: number, count: number) => unknown[] };
    dir = mkdtempSync(join(tmpdir(), 'console-catalog-'));
    chmodSync(dir, 0o755);
    for (let index = 0; index < SOURCES; index++) {
      const file = join(dir, `inventory-${index}.json`);
      writeFileSync(file, JSON.stringify(catalogTools(index, PER_SOURCE)));
      const registered = await h.api.post('/api/v1/sources', {
        name: `bulk-${index}`,
        transport: 'stdio',
        command: 'node',
        args: [join(FIXTURES, 'changing-inventory-server.mjs')],
        env: { INVENTORY_FILE: file, PAGE_SIZE: String(PER_SOURCE) },
        refreshIntervalSeconds: 0,
        sandbox: { readOnlyPaths: [dir] },
      });
      expect(registered.body.toolCount).toBe(PER_SOURCE);
    }
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    for (const tab of tabs) await tab.context.close().catch(() => undefined);
    await browser?.close();
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is interactive within a second and filters within 100 ms', async () => {
    const tab = await openConsole(browser, h.url, h.adminKey);
    tabs.push(tab);
    const { page, errors } = tab;
    await goTo(page, '/sources');
    await page.getByRole('row').filter({ hasText: 'bulk-9' }).waitFor();
    const started = Date.now();
    await goTo(page, '/catalog');
    await page.locator('[data-catalog-state="ready"]').waitFor();
    await page.getByRole('list', { name: 'Tools' }).getByRole('listitem').first().waitFor();
    const interactiveMs = Date.now() - started;

    // Scrolling far down keeps a few dozen rows in the document, not thousands.
    await page.locator('.virtual-viewport').evaluate((element: any) => (element.scrollTop = 150_000));
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('.virtual-row').length > 0);
    expect(await page.locator('.virtual-row').count()).toBeLessThan(60);

    // From the change of a filter to the new list on screen, as the page measures it; and as the driver sees it (its own round trips included).
    const filterTimes: number[] = [];
    const driverTimes: number[] = [];
    for (const [label, value] of [['Source', 'bulk-3'], ['Read-only', 'true'], ['Source', 'bulk-7'], ['Read-only', ''], ['Source', '']]) {
      const before = Date.now();
      await page.getByLabel(label!).selectOption(value!);
      await catalogReady(page, label === 'Source' ? { source: value! } : { readOnly: value! });
      driverTimes.push(Date.now() - before);
      filterTimes.push(Number(await page.locator('[data-catalog-ms]').getAttribute('data-catalog-ms')));
    }
    if (process.env.TOOLPLANE_TEST_REPORT) {
      console.log(`console catalog at ${SOURCES * PER_SOURCE} tools: interactive in ${interactiveMs} ms; filters shown in ${filterTimes.join(', ')} ms (driver: ${driverTimes.join(', ')} ms)`);
    }
    expect(interactiveMs).toBeLessThan(1000);
    // Two cores shared with the database and Toolplane: the typical change is held to 100 ms, none may take much longer.
    expect(filterTimes.slice().sort((a, b) => a - b)[2]).toBeLessThan(100);
    expect(Math.max(...filterTimes)).toBeLessThan(250);
    const violations = await axeViolations(page);
    expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);
});
