import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostPolicy, hostPolicyLists } from '../../../shared/host-policy.js';
import { oauthUrlProblem, policyFetch } from './policy-fetch.js';

describe('oauthUrlProblem', () => {
  it('takes https anywhere and http on loopback only', () => {
    expect(oauthUrlProblem(new URL('https://as.example.com/token'))).toBeUndefined();
    expect(oauthUrlProblem(new URL('http://127.0.0.1:9000/token'))).toBeUndefined();
    expect(oauthUrlProblem(new URL('http://[::1]:9000/token'))).toBeUndefined();
    expect(oauthUrlProblem(new URL('http://localhost/token'))).toBeUndefined();
    expect(oauthUrlProblem(new URL('http://as.example.com/token'))).toBe('http://as.example.com must use https (http only on a loopback address)');
    expect(oauthUrlProblem(new URL('http://10.0.0.1/token'))).toMatch(/must use https/);
    expect(oauthUrlProblem(new URL('https://user:pw@as.example.com/'))).toMatch(/embeds credentials/);
  });
});

describe('policyFetch', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/big') return void res.end('x'.repeat(300 * 1024));
      if (req.url === '/moved') return void res.writeHead(302, { location: '/elsewhere' }).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reaches loopback over http where the source host policy allows it, without following redirects', async () => {
    const { fetch, close } = policyFetch(hostPolicy(hostPolicyLists(undefined, undefined).lists), 5000);
    try {
      expect(await (await fetch(`${url}/metadata`)).json()).toEqual({ ok: true });
      const moved = await fetch(`${url}/moved`);
      expect(moved.status).toBe(302);
      expect(moved.headers.get('location')).toBe('/elsewhere');
      await expect(fetch(`${url}/big`)).rejects.toThrow(/more than 262144 bytes/);
    } finally {
      await close();
    }
  });

  it('refuses loopback where the policy denies it, and plain http elsewhere', async () => {
    const { fetch, close } = policyFetch(hostPolicy(hostPolicyLists(undefined, 'default,127.0.0.0/8').lists), 5000);
    try {
      await expect(fetch(`${url}/metadata`)).rejects.toThrow(/127\.0\.0\.1 is denied \(TOOLPLANE_SOURCE_HOSTS_DENY\)/);
      await expect(fetch('http://as.example.com/token')).rejects.toThrow(/must use https/);
    } finally {
      await close();
    }
  });
});
