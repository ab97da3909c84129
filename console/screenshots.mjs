// Screenshots of every console page, light and dark, at 1280×800, into docs/console/.
// `npm run console:screenshots` (builds first); drives Debian's Chromium against a demo Toolplane.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startDemo } from './demo-toolplane.mjs';

const OUT = resolve(dirname(fileURLToPath(import.meta.url)), '../docs/console');
mkdirSync(OUT, { recursive: true });

const demo = await startDemo();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const latest = (await demo.api('GET', '/api/v1/executions?tool=everything__get-tiny-image&limit=1')).body.items[0];

/** Each page: its path, and what to wait for (or do) before the picture. */
const PAGES = [
  ['sources', '/sources', (page) => page.getByRole('row').filter({ hasText: 'everything' }).waitFor()],
  ['source', '/sources/everything', (page) => page.getByRole('heading', { name: 'Recent executions' }).waitFor()],
  [
    'register',
    '/sources/new',
    async (page) => {
      await page.locator('#field-name').fill('GitHub Tools');
      await page.getByLabel('Command').fill('gh-mcp');
      await page.getByRole('button', { name: 'Add a variable' }).click();
      await page.locator('[id^="env-"][id$="-name"]').fill('GITHUB_TOKEN');
      await page.locator('[id^="env-"][id$="-mode"]').selectOption('secret');
      await page.locator('#name-problems').waitFor({ timeout: 20_000 });
      await page.locator('#command-problems').filter({ hasText: 'gh-mcp' }).waitFor({ timeout: 20_000 });
      await page.locator('#field-name').focus();
      await page.evaluate(() => window.scrollTo(0, 0));
    },
  ],
  ['catalog', '/catalog', (page) => page.locator('[data-catalog-state="ready"]').waitFor()],
  [
    'tool',
    '/catalog/everything__get-structured-content',
    async (page) => {
      await page.getByLabel(/^location/).selectOption({ label: 'Chicago' });
      await page.getByRole('button', { name: 'Call the tool' }).click();
      await page.getByLabel('Structured content').waitFor();
    },
  ],
  [
    'try-image',
    '/catalog/everything__get-tiny-image',
    async (page) => {
      await page.getByRole('button', { name: 'Call the tool' }).click();
      await page.getByRole('img', { name: /Image returned/ }).waitFor();
      await page.getByRole('heading', { name: 'Try it' }).scrollIntoViewIfNeeded();
    },
  ],
  ['executions', '/executions', (page) => page.getByRole('table').waitFor()],
  ['execution', `/executions/${latest.id}`, (page) => page.getByRole('heading', { name: 'Arguments' }).waitFor()],
  ['charts', '/stats', (page) => page.locator('canvas').first().waitFor()],
  ['audit', '/audit', (page) => page.getByText(/The chain is intact/).waitFor()],
  ['keys', '/keys', (page) => page.getByRole('table').waitFor()],
  ['groups', '/groups', (page) => page.getByRole('region', { name: 'Tools the group would serve' }).or(page.getByText('The group would serve no tool now.')).waitFor()],
  ['group', '/groups/support', (page) => page.getByRole('region', { name: 'Tools the group would serve' }).waitFor()],
  ['interceptors', '/interceptors', (page) => page.getByRole('region', { name: 'Interceptors table' }).waitFor()],
  [
    'interceptor',
    '/interceptors/mask-pii',
    async (page) => {
      const sample = page.getByRole('region', { name: 'Try on a sample call' });
      await sample.getByLabel('Tool', { exact: true }).fill('everything__echo');
      await sample.getByLabel('Sample arguments (JSON)').fill('{"message": "Who paid?"}');
      await sample.getByLabel('Sample result text').fill('Ada Lovelace <ada@example.com> paid with 4111 1111 1111 1111.');
      await sample.getByRole('button', { name: 'Run the preview' }).click();
      await sample.getByRole('region', { name: 'What the interceptor did' }).waitFor();
      await sample.scrollIntoViewIfNeeded();
    },
  ],
  [
    'reviews',
    '/reviews',
    async (page) => {
      const review = page.getByRole('article', { name: 'notes__read_note' });
      await review.getByRole('button', { name: /Open/ }).click();
      await review.locator('[data-side="after"]').waitFor();
    },
  ],
];

try {
  for (const scheme of ['light', 'dark']) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: scheme });
    const page = await context.newPage();
    await page.goto(`${demo.url}/console`);
    await page.screenshot({ path: join(OUT, `sign-in-${scheme}.png`) });
    await page.getByLabel('API key').fill(demo.adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    for (const [name, path, ready] of PAGES) {
      await page.goto(`${demo.url}/console${path}`);
      await ready(page);
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(OUT, `${name}-${scheme}.png`) });
      console.log(`${name}-${scheme}.png`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await demo.close();
}
