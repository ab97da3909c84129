import { InterceptorsChanged } from '../../../shared/catalog-events.js';
import { anInterceptor } from '../testing/builders.js';
import { InMemoryInterceptorRepository } from '../testing/in-memory-interceptor-repository.js';
import { InterceptorDefinitions } from './interceptor-definitions.js';

describe('InterceptorDefinitions', () => {
  it('holds the enabled interceptors in the order they run, read at start', async () => {
    const repository = new InMemoryInterceptorRepository([anInterceptor('b', { order: 1 }), anInterceptor('a', { order: 1 }), anInterceptor('first', { order: -5 }), anInterceptor('off', { enabled: false })]);
    const definitions = new InterceptorDefinitions(repository);
    expect([definitions.all(), definitions.version]).toEqual([[], 0]);
    await definitions.onModuleInit();
    expect(definitions.all().map((interceptor) => interceptor.name)).toEqual(['first', 'a', 'b']);
    expect(definitions.version).toBe(1);
    expect(Object.isFrozen(definitions.all()) && Object.isFrozen(definitions.all()[0]) && Object.isFrozen(definitions.all()[0]!.settings)).toBe(true);
  });

  it('reads again on every change, here or in another process, and moves its version only when what is in force changed', async () => {
    const repository = new InMemoryInterceptorRepository([anInterceptor('a')]);
    const definitions = new InterceptorDefinitions(repository);
    await definitions.onModuleInit();
    const before = definitions.all();

    await definitions.handle(new InterceptorsChanged(undefined, true));
    expect([definitions.version, definitions.all()]).toEqual([1, before]);
    expect(definitions.all()).toBe(before);

    repository.interceptors.set('b', anInterceptor('b', { order: -1 }));
    await definitions.handle(new InterceptorsChanged('b', true));
    expect([definitions.version, definitions.all().map((interceptor) => interceptor.name)]).toEqual([2, ['b', 'a']]);

    repository.interceptors.set('a', anInterceptor('a', { enabled: false, version: 2 }));
    await definitions.handle(new InterceptorsChanged('a'));
    expect([definitions.version, definitions.all().map((interceptor) => interceptor.name)]).toEqual([3, ['b']]);
  });

  it('keeps the latest reading when changes overlap, and survives a reading that fails', async () => {
    const repository = new InMemoryInterceptorRepository([anInterceptor('a')]);
    const definitions = new InterceptorDefinitions(repository);
    await definitions.onModuleInit();
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const all = repository.all.bind(repository);
    repository.all = async () => {
      const snapshot = await all();
      await slow;
      return snapshot;
    };
    const first = definitions.handle(new InterceptorsChanged('x', true));
    repository.all = all;
    repository.interceptors.set('b', anInterceptor('b'));
    await definitions.handle(new InterceptorsChanged('b'));
    release();
    await first;
    expect(definitions.all().map((interceptor) => interceptor.name)).toEqual(['a', 'b']);

    repository.all = async () => {
      throw new Error('the database went away');
    };
    await expect(definitions.handle(new InterceptorsChanged())).resolves.toBeUndefined();
    await expect(definitions.settled()).resolves.toBeUndefined();
    expect(definitions.all().map((interceptor) => interceptor.name)).toEqual(['a', 'b']);
  });
});
