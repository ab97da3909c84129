import { useEffect, useState } from 'preact/hooks';
import { get, query } from '../api.js';
import { Chart, type Series } from '../components/chart.js';
import { countOf, Empty, ErrorState, Loading, ms } from '../components/common.js';
import type { ExecutionStats, ExecutionStatsGroup as StatsGroup } from '../types.js';

const WINDOWS: [string, number][] = [
  ['last 15 minutes', 15],
  ['last hour', 60],
  ['last 6 hours', 360],
  ['last 24 hours', 1440],
];
const BUCKETS = 15;
const TOP = 5;

interface Loaded {
  times: number[];
  buckets: StatsGroup[][];
  total: StatsGroup[];
}

const nameOf = (group: StatsGroup) => group.qualifiedName ?? group.sourceName ?? group.principalName ?? '?';

/**
 * Calls per minute, error rate and p50/p95 latency per tool or per source over a window: the
 * window is cut into buckets, each one the stats endpoint's answer for its interval.
 */
export function StatsPage() {
  const [minutes, setMinutes] = useState(60);
  const [groupBy, setGroupBy] = useState<'tool' | 'source'>('tool');
  const [data, setData] = useState<Loaded | null>(null);
  const [error, setError] = useState<unknown>();
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((value) => value + 1), 15_000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    let live = true;
    const until = Date.now();
    const since = until - minutes * 60_000;
    const step = (until - since) / BUCKETS;
    const intervals = Array.from({ length: BUCKETS }, (_unused, index) => [since + index * step, since + (index + 1) * step] as const);
    Promise.all([
      get<ExecutionStats>(`/api/v1/executions/stats${query({ groupBy, since: new Date(since).toISOString(), until: new Date(until).toISOString() })}`),
      ...intervals.map(([from, to]) => get<ExecutionStats>(`/api/v1/executions/stats${query({ groupBy, since: new Date(from).toISOString(), until: new Date(to).toISOString() })}`)),
    ]).then(
      ([total, ...buckets]) => {
        if (!live) return;
        setData({ times: intervals.map(([, to]) => to / 1000), buckets: buckets.map((bucket) => bucket.groups), total: total.groups });
        setError(undefined);
      },
      (failure: unknown) => live && setError(failure),
    );
    return () => {
      live = false;
    };
  }, [minutes, groupBy, tick]);

  const bucketMinutes = minutes / BUCKETS;
  const top = (data?.total ?? []).slice().sort((a, b) => b.count - a.count).slice(0, TOP).map(nameOf);
  const series = (pick: (group: StatsGroup) => number | null): Series[] =>
    top.map((name) => ({ label: name, values: (data?.buckets ?? []).map((groups) => { const group = groups.find((other) => nameOf(other) === name); return group ? pick(group) : null; }) }));
  const totals = (data?.buckets ?? []).map((groups) => groups.reduce((sum, group) => sum + group.count, 0));
  const errors = (data?.buckets ?? []).map((groups) => groups.reduce((sum, group) => sum + group.errorCount, 0));
  const allCalls = totals.reduce((sum, count) => sum + count, 0);
  return (
    <section aria-labelledby="stats-title">
      <div class="page-head">
        <h1 id="stats-title">Charts</h1>
      </div>
      <div class="filters">
        <div class="field">
          <label for="stats-window">Window</label>
          <select id="stats-window" value={String(minutes)} onChange={(event) => setMinutes(Number(event.currentTarget.value))}>
            {WINDOWS.map(([label, value]) => (
              <option key={value} value={String(value)}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="stats-group">Per</label>
          <select id="stats-group" value={groupBy} onChange={(event) => setGroupBy(event.currentTarget.value as 'tool' | 'source')}>
            <option value="tool">tool</option>
            <option value="source">source</option>
          </select>
        </div>
      </div>
      {error !== undefined && <ErrorState error={error} />}
      {!data && error === undefined && <Loading />}
      {data && allCalls === 0 && <Empty>No calls in this window.</Empty>}
      {data && allCalls > 0 && (
        <>
          <div class="charts">
            <Chart title="Calls per minute" unit="calls/min" times={data.times} series={[{ label: 'all', values: totals.map((count) => count / bucketMinutes) }, ...series((group) => group.count / bucketMinutes)]} summary={`${countOf(allCalls, 'call')} in the window`} />
            <Chart title="Error rate" unit="%" times={data.times} series={[{ label: 'all', values: totals.map((count, index) => (count ? (100 * errors[index]!) / count : null)) }, ...series((group) => 100 * group.errorRate)]} summary={`${errors.reduce((sum, count) => sum + count, 0)} errors in the window`} />
            <Chart title="p50 latency" unit="ms" times={data.times} series={series((group) => group.p50DurationMs)} summary={`median duration of the ${top.length} busiest ${groupBy}s`} />
            <Chart title="p95 latency" unit="ms" times={data.times} series={series((group) => group.p95DurationMs)} summary={`95th percentile duration of the ${top.length} busiest ${groupBy}s`} />
          </div>
          <h2>Per {groupBy} over the window</h2>
          <div class="table-wrap" tabIndex={0} role="region" aria-label={`Stats per ${groupBy}`}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{groupBy === 'tool' ? 'Tool' : 'Source'}</th>
                  <th scope="col" class="num">Calls</th>
                  <th scope="col" class="num">Errors</th>
                  <th scope="col" class="num">Error rate</th>
                  <th scope="col" class="num">p50</th>
                  <th scope="col" class="num">p95</th>
                </tr>
              </thead>
              <tbody>
                {data.total.map((group) => (
                  <tr key={nameOf(group)}>
                    <td>{nameOf(group)}</td>
                    <td class="num">{group.count}</td>
                    <td class="num">{group.errorCount}</td>
                    <td class="num">{(100 * group.errorRate).toFixed(1)} %</td>
                    <td class="num">{ms(group.p50DurationMs)}</td>
                    <td class="num">{ms(group.p95DurationMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
