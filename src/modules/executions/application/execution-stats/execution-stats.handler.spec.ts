import { randomBytes } from 'node:crypto';
import { FixedClock } from '../../../../shared/testing/fixed-clock.js';
import { Ed25519AuditSigner } from '../../../audit/infrastructure/ed25519-audit-signer.js';
import type { ExecutionView } from '../execution-view.js';
import { anExecution } from '../../testing/builders.js';
import { InMemoryExecutionReads } from '../../testing/in-memory-execution-reads.js';
import { DEFAULT_STATS_WINDOW_MS, ExecutionStatsHandler } from './execution-stats.handler.js';
import { ExecutionStatsGroupBy, ExecutionStatsQuery } from './execution-stats.query.js';

const NOW = '2026-03-01T12:00:00.000Z';
const at = (msBeforeNow: number) => new Date(Date.parse(NOW) - msBeforeNow).toISOString();
const HOUR = 3_600_000;
const NO_CALLS = { succeeded: 0, tool_error: 0, invalid_arguments: 0, rejected: 0, circuit_open: 0, timeout: 0, upstream_error: 0, cancelled: 0, input_required: 0, interrupted: 0 };

function setup(executions: ExecutionView[]) {
  const reads = new InMemoryExecutionReads(executions);
  const handler = new ExecutionStatsHandler(reads, new FixedClock(NOW));
  const stats = (groupBy: ExecutionStatsGroupBy, since?: Date, until?: Date, caller?: string) => handler.execute(new ExecutionStatsQuery(groupBy, since, until, caller));
  return { reads, stats };
}

describe('ExecutionStatsHandler', () => {
  it('counts each tool by status, derives its errors and rate, and rounds its percentiles to the microsecond', async () => {
    const f = setup([
      anExecution({ qualifiedName: 'files__read', startedAt: at(HOUR), durationMs: 1 }),
      anExecution({ qualifiedName: 'files__read', startedAt: at(HOUR), durationMs: 2, status: 'timeout' }),
      anExecution({ qualifiedName: 'files__read', startedAt: at(HOUR), durationMs: 3 }),
      anExecution({ qualifiedName: 'files__read', startedAt: at(HOUR), durationMs: 4, status: 'tool_error', isError: true }),
      anExecution({ qualifiedName: 'files__write', startedAt: at(HOUR), durationMs: 7 }),
    ]);

    const view = await f.stats('tool');

    expect(view.groups).toEqual([
      {
        qualifiedName: 'files__read',
        count: 4,
        errorCount: 2,
        errorRate: 0.5,
        countsByStatus: { ...NO_CALLS, succeeded: 2, timeout: 1, tool_error: 1 },
        p50DurationMs: 2.5,
        // percentile_cont answers 3.8499999999999996 here.
        p95DurationMs: 3.85,
      },
      { qualifiedName: 'files__write', count: 1, errorCount: 0, errorRate: 0, countsByStatus: { ...NO_CALLS, succeeded: 1 }, p50DurationMs: 7, p95DurationMs: 7 },
    ]);
  });

  it('counts the 24 hours before now when no window is given, and says so', async () => {
    const f = setup([
      anExecution({ startedAt: at(DEFAULT_STATS_WINDOW_MS) }),
      anExecution({ startedAt: at(DEFAULT_STATS_WINDOW_MS + 1) }),
      anExecution({ startedAt: at(0) }),
    ]);

    const view = await f.stats('tool');

    expect(view).toMatchObject({ groupBy: 'tool', since: '2026-02-28T12:00:00.000Z', until: null, retainedFrom: null });
    expect(view.groups.map((group) => group.count)).toEqual([2]);
    expect(f.reads.statsWindows).toEqual([{ groupBy: 'tool', since: new Date('2026-02-28T12:00:00.000Z') }]);
  });

  it("counts one principal's calls in the window given, under the name it had on its latest call", async () => {
    const since = new Date(at(10 * HOUR));
    const until = new Date(at(HOUR));
    const f = setup([
      anExecution({ startedAt: at(9 * HOUR), caller: { principalId: 'key_2', principalName: 'old name' } }),
      anExecution({ startedAt: at(2 * HOUR), caller: { principalId: 'key_2', principalName: 'new name' }, status: 'rejected' }),
      anExecution({ startedAt: at(HOUR / 2), caller: { principalId: 'key_2', principalName: 'after the window' } }),
      anExecution({ startedAt: at(3 * HOUR), caller: { principalId: 'key_3', principalName: 'other' } }),
    ]);

    const view = await f.stats('caller', since, until, 'key_2');

    expect(view).toMatchObject({ groupBy: 'caller', since: since.toISOString(), until: until.toISOString() });
    expect(view.groups).toEqual([expect.objectContaining({ principalId: 'key_2', principalName: 'new name', count: 2, errorCount: 1, errorRate: 0.5 })]);
  });

  it('groups by source, the calls that never reached one last', async () => {
    const f = setup([
      anExecution({ startedAt: at(HOUR), sourceId: null, sourceName: null, status: 'invalid_arguments' }),
      anExecution({ startedAt: at(HOUR), sourceId: null, sourceName: null, status: 'invalid_arguments' }),
      anExecution({ startedAt: at(HOUR) }),
      anExecution({ startedAt: at(HOUR) }),
    ]);

    const view = await f.stats('source');

    expect(view.groups.map(({ sourceId, sourceName, count, errorCount }) => ({ sourceId, sourceName, count, errorCount }))).toEqual([
      { sourceId: '00000000-0000-4000-9000-000000000001', sourceName: 'files', count: 2, errorCount: 0 },
      { sourceId: null, sourceName: null, count: 2, errorCount: 2 },
    ]);
  });

  it('tells from when the history is retained once retention purged calls', async () => {
    const signer = new Ed25519AuditSigner(randomBytes(32));
    const f = setup([]);
    f.reads.record(anExecution({ startedAt: at(40 * 24 * HOUR) }), anExecution({ startedAt: at(HOUR) }));
    f.reads.seal(signer);
    expect((await f.stats('tool')).retainedFrom).toBeNull();

    f.reads.purge(1, new Date('2026-01-30T00:00:00.000Z'), signer);

    expect((await f.stats('tool')).retainedFrom).toBe('2026-01-30T00:00:00.000Z');
  });
});
