import type { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { ValidationFailed } from '../../../shared/domain-error.js';
import { ExecutionStatsQuery } from '../application/execution-stats/execution-stats.query.js';
import { GetExecutionQuery } from '../application/get-execution/get-execution.query.js';
import { ListExecutionsQuery } from '../application/list-executions/list-executions.query.js';
import { ADMIN, type Principal } from '../../../shared/principal/principal.js';
import { ExecutionsController } from './executions.controller.js';

describe('ExecutionsController query parameters', () => {
  const sent: unknown[] = [];
  const execute = async (query: unknown) => {
    sent.push(query);
    return query instanceof ListExecutionsQuery ? { items: [], nextCursor: null } : query;
  };
  const bus = new ExecutionsController({} as CommandBus, { execute } as unknown as QueryBus);
  // The reply only takes the ETag header here.
  const reply = { header: () => reply, status: () => reply } as unknown as FastifyReply;
  // The admin's view unless a test says otherwise.
  const controller = {
    list: (query: Record<string, unknown>, principal: Principal = ADMIN) => bus.list(query, principal, undefined, reply).then(() => sent.at(-1)),
    stats: (query: Record<string, unknown>) => bus.stats(query),
    get: (id: string) => bus.get(id, ADMIN),
  };
  const problems = (run: () => unknown): { path: string; message: string }[] => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationFailed);
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED' });
      return (error as ValidationFailed).details;
    }
    throw new Error('expected a ValidationFailed');
  };

  it('parses every filter of the listing', async () => {
    const query = await controller.list({
      tool: 'files__read',
      source: 'files',
      status: 'succeeded,tool_error,succeeded',
      caller: 'key_1',
      since: '2026-01-01T00:00:00Z',
      until: '2026-01-02T00:00:00Z',
      cursor: 'abc',
      limit: '7',
    });
    expect(query).toBeInstanceOf(ListExecutionsQuery);
    expect(query).toMatchObject({
      filter: {
        tool: 'files__read',
        source: 'files',
        statuses: ['succeeded', 'tool_error'],
        caller: 'key_1',
        since: new Date('2026-01-01T00:00:00Z'),
        until: new Date('2026-01-02T00:00:00Z'),
      },
      cursor: 'abc',
      limit: 7,
    });
    expect(await controller.list({})).toMatchObject({ filter: {}, cursor: undefined, limit: 50 });
  });

  it('reports every problem of the listing at once, unknown parameters included', () => {
    const details = problems(() =>
      controller.list({ status: 'succeeded,exploded', limit: '501', since: 'soon', tool: ['a', 'b'], sort: 'asc' }),
    );
    expect(details.map((d) => d.path).sort()).toEqual(['limit', 'since', 'sort', 'status', 'tool']);
    expect(details.find((d) => d.path === 'status')!.message).toContain('succeeded, tool_error');
    expect(details.find((d) => d.path === 'sort')!.message).toBe('is not a known query parameter');
    expect(problems(() => controller.list({ limit: '0' }))).toEqual([{ path: 'limit', message: 'must be an integer between 1 and 500' }]);
    expect(problems(() => controller.list({ status: '' }))).toEqual([expect.objectContaining({ path: 'status' })]);
    expect(problems(() => controller.list({ tool: 'bad\u0000', source: 'x\ny', caller: '\u0007' })).map((d) => d.path)).toEqual(['tool', 'source', 'caller']);
  });

  it('refuses a window that ends before it starts', () => {
    expect(problems(() => controller.list({ since: '2026-01-02T00:00:00Z', until: '2026-01-01T00:00:00Z' }))).toEqual([
      { path: 'until', message: 'must be later than since' },
    ]);
    const both = problems(() => controller.stats({ since: '2026-01-02T00:00:00Z', until: '2026-01-01T00:00:00Z', bogus: '1' }));
    expect(both.map((d) => d.path).sort()).toEqual(['bogus', 'until']);
  });

  it('parses the stats parameters, grouping by tool by default', async () => {
    expect(await controller.stats({})).toEqual(new ExecutionStatsQuery('tool', undefined, undefined));
    expect(await controller.stats({ groupBy: 'source', since: '2026-01-01T00:00:00Z' })).toEqual(
      new ExecutionStatsQuery('source', new Date('2026-01-01T00:00:00Z'), undefined),
    );
    expect(problems(() => controller.stats({ groupBy: 'principal', limit: '5' })).map((d) => d.path).sort()).toEqual(['groupBy', 'limit']);
  });

  it('passes the id through to GetExecution', async () => {
    await controller.get('0b0c3f0e-9d1e-4a53-9c55-0a1f1d6a2b9e');
    expect(sent.at(-1)).toEqual(new GetExecutionQuery('0b0c3f0e-9d1e-4a53-9c55-0a1f1d6a2b9e'));
  });

  it("limits a principal without executions:read-all to its own calls, whatever caller it asks for", async () => {
    const agent: Principal = { id: 'b4c9e7a2-0000-4000-8000-000000000001', name: 'bot', kind: 'api-key', roles: ['agent'] };
    expect(await controller.list({ caller: 'someone-else' }, agent)).toMatchObject({ filter: { caller: agent.id } });
    const auditor: Principal = { ...agent, roles: ['auditor'] };
    expect(await controller.list({ caller: 'someone-else' }, auditor)).toMatchObject({ filter: { caller: 'someone-else' } });
  });
});
