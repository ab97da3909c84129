import { InterceptorsChanged } from '../../../../shared/catalog-events.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import { anInterceptor } from '../../testing/builders.js';
import { interceptorsFixture } from '../../testing/interceptors-fixture.js';
import { UpdateInterceptorCommand } from './update-interceptor.command.js';
import { UpdateInterceptorHandler } from './update-interceptor.handler.js';

async function setup() {
  const f = interceptorsFixture({
    interceptors: [
      anInterceptor('no-etc', { order: 5, settings: { rules: [{ argument: 'path', pathUnder: '/etc', message: 'Not /etc.' }] } }),
      anInterceptor('trim', { kind: 'cap', phase: 'post', settings: { maxBytes: 1000, maxBlocks: 3 } }),
    ],
    secrets: { HOOK_KEY: 'x' },
  });
  await f.definitions.onModuleInit();
  const handler = new UpdateInterceptorHandler(f.checker, f.writes);
  return { ...f, update: (name: string, input: Record<string, unknown>) => handler.execute(new UpdateInterceptorCommand(name, input, 'admin')) };
}

describe('UpdateInterceptor', () => {
  it('changes the fields given, audits each changed field before and after, bumps the version and has the change in force when it answers', async () => {
    const f = await setup();
    const version = f.definitions.version;
    const changed = await f.update('no-etc', { description: 'Keeps agents out of /etc', order: 2, rules: [{ argument: 'path', pathUnder: '/etc', message: 'Not /etc.' }] });
    expect(changed).toMatchObject({ description: 'Keeps agents out of /etc', order: 2, version: 2, updatedAt: '2026-03-01T12:00:00.000Z' });
    expect(f.audit.events).toEqual([
      {
        actor: 'admin',
        action: 'interceptor.updated',
        targetType: 'interceptor',
        targetId: 'interceptor-no-etc',
        targetName: 'no-etc',
        details: { before: { description: '', order: 5 }, after: { description: 'Keeps agents out of /etc', order: 2 } },
      },
    ]);
    expect(f.notifier.interceptors).toEqual(['no-etc']);
    expect(f.events.of(InterceptorsChanged)).toEqual([new InterceptorsChanged('no-etc')]);
    expect(f.definitions.version).toBe(version + 1);
    expect(f.definitions.all().find((interceptor) => interceptor.name === 'no-etc')).toMatchObject({ order: 2, version: 2 });
  });

  it('puts a field back to its default with null, removes an optional setting, and takes a new kind with its own settings', async () => {
    const f = await setup();
    expect(await f.update('trim', { maxBlocks: null, action: 'refuse' })).toMatchObject({ maxBytes: 1000, action: 'refuse', version: 2 });
    expect(await f.update('trim', {})).not.toHaveProperty('maxBlocks');
    expect(f.audit.events[0]?.details).toEqual({ before: { maxBlocks: 3, action: null }, after: { maxBlocks: null, action: 'refuse' } });
    const redact = await f.update('trim', { kind: 'redact', detect: ['email'] });
    expect(redact).toMatchObject({ kind: 'redact', phase: 'post', detect: ['email'], version: 3 });
    expect(redact).not.toHaveProperty('maxBytes');
    const hook = await f.update('no-etc', { kind: 'webhook', url: 'https://policy.example.com', signingSecret: 'HOOK_KEY', order: null });
    expect(hook).toMatchObject({ kind: 'webhook', phase: 'pre', order: 0, timeoutMs: 5000 });
  });

  it('answers a change that changes nothing as it is, without a version, an audit event or news', async () => {
    const f = await setup();
    expect(await f.update('no-etc', { order: 5, enabled: true })).toMatchObject({ version: 1 });
    expect([f.audit.events.length, f.events.published.length, f.notifier.interceptors.length]).toEqual([0, 0, 0]);
  });

  it('refuses every problem of the change alone, then of the interceptor it makes, a rename, a stale version and an unknown name', async () => {
    const f = await setup();
    expect((await rejection(f.update('no-etc', { name: 'renamed', version: 0, rules: 'all', colour: 'red' }))).details.map((problem) => problem.path)).toEqual([
      'name',
      'version',
      'colour',
      'rules',
    ]);
    expect(await rejection(f.update('no-etc', { phase: 'post', maxBytes: 5 }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [
        { path: 'maxBytes', message: expect.stringContaining('is not a setting of a deny interceptor') },
        { path: 'phase', message: 'must be pre for a deny interceptor (post given)' },
      ],
    });
    expect(await rejection(f.update('no-etc', { rules: null }))).toMatchObject({ details: [{ path: 'rules', message: 'is required: at least one rule' }] });
    expect(await rejection(f.update('no-etc', { kind: 'webhook' }))).toMatchObject({ details: [{ path: 'url' }, { path: 'signingSecret' }] });
    expect(await rejection(f.update('no-etc', { description: 'x', version: 2 }))).toMatchObject({ kind: 'conflict', code: 'STALE_VERSION', details: [{ path: 'version' }] });
    expect(await f.update('no-etc', { description: 'x', version: 1 })).toMatchObject({ version: 2 });
    expect(await rejection(f.update('nope', { description: 'x' }))).toMatchObject({ kind: 'not_found', code: 'INTERCEPTOR_NOT_FOUND' });
    expect(f.audit.events.map((event) => event.action)).toEqual(['interceptor.updated']);
  });
});
