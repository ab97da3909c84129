import { rejection } from '../../../../shared/testing/rejection.js';
import { anInterceptor } from '../../testing/builders.js';
import { InMemoryInterceptorRepository } from '../../testing/in-memory-interceptor-repository.js';
import { GetInterceptorHandler } from './get-interceptor.handler.js';
import { GetInterceptorQuery } from './get-interceptor.query.js';

describe('GetInterceptor', () => {
  it('answers one interceptor in its flat form, and INTERCEPTOR_NOT_FOUND for another', async () => {
    const get = new GetInterceptorHandler(new InMemoryInterceptorRepository([anInterceptor('trim', { kind: 'cap', phase: 'post', settings: { maxBytes: 100 } })]));
    expect(await get.execute(new GetInterceptorQuery('trim'))).toEqual({
      name: 'trim',
      description: '',
      kind: 'cap',
      phase: 'post',
      order: 0,
      scope: {},
      onError: 'deny',
      timeoutMs: 1000,
      enabled: true,
      maxBytes: 100,
      version: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      createdBy: 'admin',
      updatedBy: 'admin',
    });
    expect(await rejection(get.execute(new GetInterceptorQuery('nothing')))).toMatchObject({ kind: 'not_found', code: 'INTERCEPTOR_NOT_FOUND', message: 'No interceptor named "nothing".' });
  });
});
