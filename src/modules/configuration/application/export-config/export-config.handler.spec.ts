import { anApiKey } from '../../../access/testing/builders.js';
import { InMemoryApiKeyRepository } from '../../../access/testing/in-memory-api-key-repository.js';
import { aRemoteSource, aSource } from '../../../sources/testing/builders.js';
import { InMemorySourceRepository } from '../../../sources/testing/in-memory-source-repository.js';
import { FixedClock } from '../../../../shared/testing/fixed-clock.js';
import { aGroup } from '../../../groups/testing/builders.js';
import { InMemoryGroupRepository } from '../../../groups/testing/in-memory-group-repository.js';
import { anInterceptor } from '../../../interceptors/testing/builders.js';
import { InMemoryInterceptorRepository } from '../../../interceptors/testing/in-memory-interceptor-repository.js';
import { ExportConfigHandler } from './export-config.handler.js';
import { ExportConfigQuery } from './export-config.query.js';

const sources = [
  aSource({ name: 'zeta', env: { TOKEN: 'typed-in-token', API: '${secret:API}' }, timeoutMs: 5000 }),
  aRemoteSource({ name: 'alpha', url: 'https://mcp.example.com/mcp?token=abc', headers: { Authorization: 'Bearer ${secret:TOKEN}' } }),
  aSource({ name: 'removed', deletedAt: new Date('2026-01-01T00:00:00Z') }),
];

function exporter(keys = [anApiKey('agent', { scope: { tools: ['alpha__*'] } }), anApiKey('revoked', { revokedAt: new Date('2026-01-01T00:00:00Z') })]) {
  const groups = new InMemoryGroupRepository();
  groups.groups.set('support', aGroup('support', { description: 'For the support bot', include: ['alpha__echo'], overrides: { alpha__echo: { name: 'say', locked: { message: 'hi' } } } }));
  groups.groups.set('empty', aGroup('empty'));
  const interceptors = new InMemoryInterceptorRepository([
    anInterceptor('no-etc', { scope: { tools: ['fs__*'] }, settings: { rules: [{ argument: 'path', pathUnder: '/etc', message: 'No.' }] } }),
    anInterceptor('hook', { kind: 'webhook', phase: 'pre', timeoutMs: 5000, onError: 'allow', order: -3, enabled: false, settings: { url: 'https://hook.example.com', signingSecret: 'HOOK_KEY' } }),
    anInterceptor('trim', { kind: 'cap', phase: 'post', description: 'Small results', timeoutMs: 250, settings: { maxBytes: 1000 } }),
  ]);
  const handler = new ExportConfigHandler(new InMemorySourceRepository(sources), new InMemoryApiKeyRepository(keys), groups, interceptors, new FixedClock('2026-01-02T00:00:00Z'));
  return (includeKeys: boolean, includeGroups = false, includeInterceptors = false) => handler.execute(new ExportConfigQuery(includeKeys, includeGroups, includeInterceptors));
}

describe('ExportConfigHandler', () => {
  it('exports the live sources by name as a file declares them, with ${stored} where a value must not be written', async () => {
    const exported = await exporter()(false);
    expect(exported).toEqual({
      sources: [
        { name: 'alpha', transport: 'streamable-http', url: '${stored}', headers: { Authorization: 'Bearer ${secret:TOKEN}' } },
        { name: 'zeta', transport: 'stdio', command: 'node', args: ['/srv/demo/server.js'], env: { TOKEN: '${stored}', API: '${secret:API}' }, timeoutMs: 5000 },
      ],
    });
    expect(JSON.stringify(exported)).not.toMatch(/typed-in-token|token=abc/);
  });

  it('adds the active keys, each with ${stored} for its key, only when asked', async () => {
    expect(await exporter()(true)).toMatchObject({ keys: [{ name: 'agent', role: 'agent', allowedTools: ['alpha__*'], key: '${stored}' }] });
  });

  it('writes no keys: list without keys, since a file that has one manages them all', async () => {
    expect(await exporter([])(true)).not.toHaveProperty('keys');
  });

  it('adds the interceptors by name, each common field only when it is not its kind’s default, with their settings, only when asked', async () => {
    expect(await exporter()(true, true)).not.toHaveProperty('interceptors');
    expect((await exporter()(false, false, true)).interceptors).toEqual([
      { name: 'hook', kind: 'webhook', phase: 'pre', order: -3, onError: 'allow', enabled: false, url: 'https://hook.example.com', signingSecret: 'HOOK_KEY' },
      { name: 'no-etc', kind: 'deny', scope: { tools: ['fs__*'] }, rules: [{ argument: 'path', pathUnder: '/etc', message: 'No.' }] },
      { name: 'trim', description: 'Small results', kind: 'cap', timeoutMs: 250, maxBytes: 1000 },
    ]);
  });

  it('adds the groups by name, each setting only when it is not its default, only when asked', async () => {
    expect(await exporter()(true)).not.toHaveProperty('groups');
    expect((await exporter()(false, true)).groups).toEqual([
      { name: 'empty' },
      { name: 'support', description: 'For the support bot', include: ['alpha__echo'], overrides: { alpha__echo: { name: 'say', locked: { message: 'hi' } } } },
    ]);
  });
});
