import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { parse } from 'yaml';
import { launchChromium, openConsole } from '../helpers/console-browser.js';
import { makeApi, startHarness, type Api, type Harness } from '../helpers/toolplane-harness.js';
import { ROOT } from '../helpers/upstreams.js';

/**
 * What someone starting Toolplane for the first time meets: the start's log at the default level,
 * the address they open, and the API reference with its Try-it-out.
 */
describe('first contact', () => {
  let h: Harness;
  let api: Api;
  let adminKey: string;
  let browser: Browser | undefined;

  beforeAll(async () => {
    // No TOOLPLANE_ADMIN_KEY: the first start generates one into the data directory.
    h = await startHarness({ LOG_LEVEL: 'info', TOOLPLANE_ADMIN_KEY: '' });
    adminKey = readFileSync(join(h.dataDir, 'admin.key'), 'utf8').trim();
    api = makeApi(h.url, adminKey);
  });

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  const logLines = () =>
    h.process
      .logs()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg?: string; context?: string });

  it('says where the console is and where the admin key was written, and keeps the route table out of the info log', () => {
    const ready = logLines().find((line) => line.msg?.startsWith('Toolplane ready on'));
    expect(ready?.msg).toContain(`${h.url}/console`);
    expect(ready?.msg).toContain(`${h.url}/docs`);
    expect(ready?.msg).toContain(join(h.dataDir, 'admin.key'));
    expect(ready?.msg).not.toContain(adminKey);
    const routeLines = logLines().filter((line) => line.context === 'RouterExplorer' || line.context === 'RoutesResolver' || /Mapped \{/.test(line.msg ?? ''));
    expect(routeLines).toEqual([]);
    // At the default level a start says only a few things.
    expect(logLines().length).toBeLessThan(15);
  });

  it('names TOOLPLANE_ADMIN_KEY in the ready line when the key comes from there, and maps routes at debug', async () => {
    const peer = await h.startPeer({ LOG_LEVEL: 'debug', TOOLPLANE_ADMIN_KEY: adminKey });
    const lines = peer.process.logs().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { level: number; msg?: string; context?: string });
    expect(lines.find((line) => line.msg?.startsWith('Toolplane ready on'))?.msg).toContain('admin key from TOOLPLANE_ADMIN_KEY');
    const routeLines = lines.filter((line) => line.context === 'RouterExplorer');
    expect(routeLines.length).toBeGreaterThan(20);
    expect(new Set(routeLines.map((line) => line.level))).toEqual(new Set([20]));
    await peer.close();
  });

  it('sends a visit to / on to the console', async () => {
    const root = await fetch(`${h.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/console');
    const followed = await fetch(`${h.url}/`);
    expect(followed.status).toBe(200);
    expect(followed.headers.get('content-type')).toContain('text/html');
  });

  describe('the API reference', () => {
    const README_ORDER = () => {
      // The README's list of the API's groups, as `openapi.yaml` is described there.
      const line = readFileSync(join(ROOT, 'README.md'), 'utf8')
        .split('\n')
        .find((text) => text.startsWith('- [openapi.yaml](openapi.yaml)'))!;
      return [...line.slice(line.indexOf(':')).matchAll(/`([a-z]+)`/g)].map((match) => match[1]);
    };

    it('carries the package version, calls the key an API key, sums up every operation and orders the tags as the README', async () => {
      const document = (await api.get('/docs/openapi.json')).body;
      const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
      expect(document.info.version).toBe(pkg.version);
      const committed = parse(readFileSync(join(ROOT, 'openapi.yaml'), 'utf8'));
      expect(committed.info.version).toBe(pkg.version);
      const schemes = Object.values(document.components.securitySchemes) as Array<{ bearerFormat?: string; description?: string }>;
      expect(schemes.length).toBeGreaterThan(0);
      for (const scheme of schemes) {
        expect(scheme.bearerFormat ?? '').not.toMatch(/jwt/i);
      }
      const operations = Object.entries(document.paths as Record<string, Record<string, { summary?: string; tags?: string[] }>>).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, summary: operation.summary, tags: operation.tags ?? [] })),
      );
      expect(operations.length).toBeGreaterThan(25);
      expect(operations.filter((operation) => !operation.summary || operation.summary.trim().length < 5).map((operation) => operation.name)).toEqual([]);
      const order = README_ORDER();
      expect(order.length).toBeGreaterThan(5);
      expect((document.tags as Array<{ name: string }>).map((tag) => tag.name)).toEqual(order);
      // Every operation is under one of them.
      expect(operations.filter((operation) => operation.tags.length !== 1 || !order.includes(operation.tags[0]!)).map((operation) => operation.name)).toEqual([]);
    });

    it('never puts the admin key into the curl it shows, even in a browser signed in to the console', async () => {
      browser = await launchChromium();
      const tab = await openConsole(browser, h.url, adminKey);
      const init = await (await fetch(`${h.url}/docs/swagger-ui-init.js`)).text();
      expect(init).not.toContain(adminKey);
      expect(init).not.toMatch(/"persistAuthorization":\s*true/);
      const page = tab.page;
      await page.goto(`${h.url}/docs`);
      const operation = page.locator('#operations-ops-Health_live');
      await operation.locator('.opblock-summary').click();
      await operation.getByRole('button', { name: 'Try it out' }).click();
      await operation.getByRole('button', { name: 'Execute' }).click();
      const curl = operation.locator('.curl-command');
      await curl.waitFor();
      const shown = await curl.innerText();
      expect(shown).toContain('/health/live');
      expect(shown).not.toContain(adminKey);
      expect(shown).not.toMatch(/authorization/i);
      await tab.context.close();
    });
  });
});
