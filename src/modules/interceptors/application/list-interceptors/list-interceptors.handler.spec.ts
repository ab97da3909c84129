import { anInterceptor } from '../../testing/builders.js';
import { InMemoryInterceptorRepository } from '../../testing/in-memory-interceptor-repository.js';
import { ListInterceptorsHandler } from './list-interceptors.handler.js';
import { ListInterceptorsQuery } from './list-interceptors.query.js';

describe('ListInterceptors', () => {
  it('pages the interceptors by name, with a cursor that carries on after the last one', async () => {
    const list = new ListInterceptorsHandler(new InMemoryInterceptorRepository(['trim', 'alpha', 'no-etc'].map((name) => anInterceptor(name))));
    const first = await list.execute(new ListInterceptorsQuery(undefined, 2));
    expect(first.items.map((interceptor) => interceptor.name)).toEqual(['alpha', 'no-etc']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await list.execute(new ListInterceptorsQuery(first.nextCursor!, 2));
    expect([second.items.map((interceptor) => interceptor.name), second.nextCursor]).toEqual([['trim'], null]);
    expect(second.items[0]).toMatchObject({ kind: 'deny', rules: [{ message: 'No.' }], version: 1 });
  });
});
