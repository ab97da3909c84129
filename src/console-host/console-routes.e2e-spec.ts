import Fastify from 'fastify';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerConsoleRoutes } from './console-routes.js';

describe('console routes', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'console-build-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(dir, 'app.js'), 'export {};');
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A Fastify serving only the console, on a free loopback port; `get` fetches from it. */
  const serve = async (options: Parameters<typeof registerConsoleRoutes>[1]) => {
    const fastify = Fastify();
    registerConsoleRoutes(fastify, options);
    const base = await fastify.listen({ port: 0, host: '127.0.0.1' });
    return { get: (path: string) => fetch(base + path), close: () => fastify.close() };
  };

  it('answers index.html for every page and the files themselves, under the strict policy', async () => {
    const fastify = await serve({ dir });
    for (const url of ['/console', '/console/', '/console/sources/github/edit']) {
      const page = await fastify.get(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>console</title>');
      expect(page.headers.get('content-security-policy')).toBe(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
      );
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    }
    const script = await fastify.get('/console/app.js');
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect((await fastify.get('/console/missing.js')).status).toBe(404);
    expect(await (await fastify.get('/console/settings.json')).json()).toEqual({ oidc: null });
    await fastify.close();
  });

  it('lets the OIDC issuer in connect-src and tells the sign-in page about it', async () => {
    const oidc = { issuer: 'https://sso.example/realms/acme', clientId: 'console', scopes: 'openid', resource: 'https://tools.example' };
    const fastify = await serve({ dir, oidc });
    const page = await fastify.get('/console');
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self' https://sso.example;");
    expect(await (await fastify.get('/console/settings.json')).json()).toEqual({ oidc });
    await fastify.close();
  });

  it('says so when the console was not built', async () => {
    const fastify = await serve({ dir: join(dir, 'nothing-here') });
    const page = await fastify.get('/console');
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('npm run build');
    await fastify.close();
  });
});
