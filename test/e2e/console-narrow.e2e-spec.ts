import type { Browser } from 'playwright-core';
import { goTo, launchChromium, openConsole, type ConsoleTab } from '../helpers/console-browser.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING } from '../helpers/upstreams.js';

/** The console on a phone's width (390 CSS pixels): no page is wider than the screen. */
describe('the console at 390 px', () => {
  let h: Harness;
  let browser: Browser;
  let tab: ConsoleTab;
  let executionId: string;

  beforeAll(async () => {
    h = await startHarness();
    const registered = await h.api.post('/api/v1/sources', { name: 'everything', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] });
    expect(registered.status).toBe(201);
    const call = await h.api.post('/api/v1/tools/everything__echo/invoke', { arguments: { message: 'a message long enough to wrap on a narrow screen, and then some more words' } });
    expect(call.status).toBe(200);
    executionId = call.body.id;
    browser = await launchChromium();
    tab = await openConsole(browser, h.url, h.adminKey, { width: 390, height: 844 });
  }, 60_000);

  afterAll(async () => {
    await tab?.context.close();
    await browser?.close();
    await h?.close();
  });

  const pages = () => [
    ['/catalog/everything__echo', 'echo'],
    ['/sources', 'everything'],
    ['/sources/everything', 'everything'],
    ['/sources/new', 'Register'],
    ['/catalog', 'everything__echo'],
    ['/executions', 'everything__echo'],
    [`/executions/${executionId}`, 'everything__echo'],
    ['/stats', 'Charts'],
    ['/audit', 'everything'],
    ['/keys', 'API keys'],
    ['/interceptors', 'New interceptor'],
  ];

  it('counts in English: one source is "1 source"', async () => {
    const { page } = tab;
    await goTo(page, '/sources');
    await page.getByText(/^1 source, none failing$/).waitFor({ timeout: 15_000 });
  });

  it('fits every page in the width of the screen', async () => {
    const { page } = tab;
    const overflowing: Record<string, { width: number; widest: string }> = {};
    for (const [path, text] of pages()) {
      await goTo(page, path!);
      await page.getByText(text!).first().waitFor({ timeout: 15_000 });
      await page.waitForTimeout(300);
      const measured = await page.evaluate(() => {
        const doc = (globalThis as any).document;
        const width: number = doc.documentElement.scrollWidth;
        // The element reaching furthest right, to say what to fix.
        const name = (element: any) => `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${typeof element.className === 'string' && element.className ? `.${element.className.trim().split(/\s+/).join('.')}` : ''}`;
        let widest = '';
        let right = 0;
        for (const element of doc.body.querySelectorAll('*')) {
          const box = element.getBoundingClientRect();
          if (box.right > right) {
            right = box.right;
            const chain: string[] = [];
            for (let at = element; at && at !== doc.body; at = at.parentElement) chain.unshift(name(at));
            widest = `${chain.join(' > ')} (${Math.round(box.right)} px)`;
          }
        }
        return { width, widest };
      });
      if (measured.width > 390) overflowing[path!] = measured;
    }
    expect(overflowing).toEqual({});
    expect(tab.errors).toEqual([]);
  }, 120_000);
});
