import { InterceptorsChanged } from '../../../../shared/catalog-events.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import { anInterceptor } from '../../testing/builders.js';
import { interceptorsFixture, NOW } from '../../testing/interceptors-fixture.js';
import { CreateInterceptorCommand } from './create-interceptor.command.js';
import { CreateInterceptorHandler } from './create-interceptor.handler.js';

async function setup(options: Parameters<typeof interceptorsFixture>[0] = {}) {
  const f = interceptorsFixture(options);
  await f.definitions.onModuleInit();
  const handler = new CreateInterceptorHandler(f.checker, f.writes);
  return { ...f, create: (input: Record<string, unknown>, shapeProblems: { path: string; message: string }[] = []) => handler.execute(new CreateInterceptorCommand(input, 'admin', shapeProblems)) };
}

const NO_ETC = { name: 'no-etc', kind: 'deny', scope: { tools: ['fs__*'] }, rules: [{ argument: 'path', pathUnder: '/etc', message: 'Not under /etc.' }] };

describe('CreateInterceptor', () => {
  it('stores the interceptor, audits it in the unit of work, tells the other processes, and has it in force when it answers', async () => {
    const f = await setup();
    const view = await f.create(NO_ETC);
    expect(view).toEqual({
      name: 'no-etc',
      description: '',
      kind: 'deny',
      phase: 'pre',
      order: 0,
      scope: { tools: ['fs__*'] },
      onError: 'deny',
      timeoutMs: 1000,
      enabled: true,
      rules: [{ argument: 'path', pathUnder: '/etc', message: 'Not under /etc.' }],
      version: 1,
      createdAt: NOW,
      updatedAt: NOW,
      createdBy: 'admin',
      updatedBy: 'admin',
    });
    expect(f.audit.events).toEqual([
      {
        actor: 'admin',
        action: 'interceptor.created',
        targetType: 'interceptor',
        targetId: 'interceptor-1',
        targetName: 'no-etc',
        details: { name: 'no-etc', description: '', kind: 'deny', phase: 'pre', order: 0, scope: { tools: ['fs__*'] }, onError: 'deny', timeoutMs: 1000, enabled: true, rules: NO_ETC.rules },
      },
    ]);
    expect(f.notifier.interceptors).toEqual(['no-etc']);
    expect(f.events.of(InterceptorsChanged)).toEqual([new InterceptorsChanged('no-etc')]);
    expect([f.definitions.version, f.definitions.all().map((interceptor) => interceptor.name)]).toEqual([1, ['no-etc']]);
  });

  it('refuses a name in use with INTERCEPTOR_EXISTS', async () => {
    const f = await setup({ interceptors: [anInterceptor('no-etc')] });
    expect(await rejection(f.create(NO_ETC))).toMatchObject({ kind: 'conflict', code: 'INTERCEPTOR_EXISTS', details: [{ path: 'name', message: 'is taken' }] });
    expect(f.audit.events).toEqual([]);
  });

  it('refuses an invalid interceptor with every problem, storing and telling nothing', async () => {
    const f = await setup();
    const error = await rejection(f.create({ name: '-x', kind: 'deny', phase: 'post', rules: [{ pattern: '(', message: '' }], colour: 'red' }));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The interceptor is invalid.' });
    expect(error.details.map((problem) => problem.path)).toEqual(['colour', 'name', 'phase', 'rules[0].pattern', 'rules[0].pattern', 'rules[0].message']);
    expect(await rejection(f.create({}, [{ path: 'body', message: 'must be a JSON object' }]))).toMatchObject({ details: [{ path: 'body', message: 'must be a JSON object' }] });
    expect([f.interceptors.interceptors.size, f.audit.events.length, f.events.published.length, f.notifier.interceptors.length]).toEqual([0, 0, 0, 0]);
  });

  it('takes a webhook only with its signing secret stored and a host remote sources may reach, listed with the other problems', async () => {
    const f = await setup({ secrets: { HOOK_KEY: 'k3y-value' } });
    f.hosts.deny('169.254.169.254', 'is a cloud metadata address');
    const hook = { name: 'policy', kind: 'webhook', phase: 'pre', url: 'http://169.254.169.254/latest', signingSecret: 'NO_SUCH_KEY', order: 'first' };
    expect((await rejection(f.create(hook))).details).toEqual([
      { path: 'order', message: 'must be an integer from -1000000 to 1000000' },
      { path: 'signingSecret', message: 'names no stored secret: store its value first (PUT /api/v1/secrets/NO_SUCH_KEY)' },
      { path: 'url', message: 'is a cloud metadata address' },
    ]);
    const created = await f.create({ ...hook, order: 1, url: 'https://policy.example.com/check', signingSecret: 'HOOK_KEY' });
    expect(created).toMatchObject({ kind: 'webhook', timeoutMs: 5000, url: 'https://policy.example.com/check', signingSecret: 'HOOK_KEY' });
    expect(JSON.stringify([created, f.audit.events])).not.toContain('k3y-value');
  });
});
