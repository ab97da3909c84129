import { InterceptorsChanged } from '../../../../shared/catalog-events.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import { anInterceptor } from '../../testing/builders.js';
import { interceptorsFixture } from '../../testing/interceptors-fixture.js';
import { DeleteInterceptorCommand } from './delete-interceptor.command.js';
import { DeleteInterceptorHandler } from './delete-interceptor.handler.js';

describe('DeleteInterceptor', () => {
  it('removes the interceptor with its audit event, tells the other processes, and has it out of force when it answers', async () => {
    const f = interceptorsFixture({ interceptors: [anInterceptor('no-etc'), anInterceptor('other')] });
    await f.definitions.onModuleInit();
    const remove = new DeleteInterceptorHandler(f.writes);
    expect(await remove.execute(new DeleteInterceptorCommand('no-etc', 'admin'))).toMatchObject({ name: 'no-etc', kind: 'deny', version: 1 });
    expect([...f.interceptors.interceptors.keys()]).toEqual(['other']);
    expect(f.audit.events).toEqual([{ actor: 'admin', action: 'interceptor.removed', targetType: 'interceptor', targetId: 'interceptor-no-etc', targetName: 'no-etc', details: {} }]);
    expect(f.notifier.interceptors).toEqual(['no-etc']);
    expect(f.events.of(InterceptorsChanged)).toEqual([new InterceptorsChanged('no-etc')]);
    expect(f.definitions.all().map((interceptor) => interceptor.name)).toEqual(['other']);
    expect(await rejection(remove.execute(new DeleteInterceptorCommand('no-etc', 'admin')))).toMatchObject({ kind: 'not_found', code: 'INTERCEPTOR_NOT_FOUND' });
    expect(f.audit.events).toHaveLength(1);
  });
});
