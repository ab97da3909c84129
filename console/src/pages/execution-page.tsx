import { Badge, ErrorState, JsonView, Link, Loading, When, ms } from '../components/common.js';
import { ResultView } from '../components/result-view.js';
import { useResource } from '../hooks.js';
import type { Execution } from '../types.js';

type InterceptorRun = Execution['interceptors'][number];

/** One call: who made it, with what (redacted), what came back, how long it took. */
export function ExecutionPage(props: { id: string }) {
  const execution = useResource<Execution>(`/api/v1/executions/${encodeURIComponent(props.id)}`);
  if (execution.error) return <ErrorState error={execution.error} retry={execution.reload} />;
  if (!execution.data) return <Loading />;
  const e = execution.data;
  return (
    <section aria-labelledby="execution-title">
      <div class="page-head">
        <h1 id="execution-title">
          Execution <Badge value={e.status} />
        </h1>
        <Link to="/executions">All executions</Link>
      </div>
      <dl class="facts">
        <dt>Id</dt>
        <dd>
          <code>{e.id}</code>
        </dd>
        <dt>Tool</dt>
        <dd>
          <Link to={`/catalog/${encodeURIComponent(e.qualifiedName)}`}>{e.qualifiedName}</Link>
          {e.sourceName ? ` (source ${e.sourceName})` : ''}
        </dd>
        <dt>Started</dt>
        <dd>
          <When at={e.startedAt} /> ({new Date(e.startedAt).toISOString()})
        </dd>
        <dt>Duration</dt>
        <dd>{ms(e.durationMs)}</dd>
        <dt>Attempts</dt>
        <dd>{e.attempts}</dd>
        <dt>Channel</dt>
        <dd>{e.channel}</dd>
        <dt>Caller</dt>
        <dd>
          {e.caller?.principalName ?? '—'} <span class="muted">({e.caller?.principalId})</span>
          {e.caller?.clientName ? `, client ${e.caller.clientName}` : ''}
        </dd>
        <dt>Trace id</dt>
        <dd>{e.traceId ? <code>{e.traceId}</code> : <span class="muted">none (traces are off)</span>}</dd>
        <dt>Correlation id</dt>
        <dd>{e.caller?.correlationId ?? <span class="muted">none sent</span>}</dd>
      </dl>
      <h2>Arguments</h2>
      {e.arguments === null ? <p class="muted">Not shown to this role (stored arguments need executions:payloads).</p> : <JsonView value={e.arguments} label="Arguments (secrets redacted)" />}
      <h2>Interceptors</h2>
      {e.interceptors.length === 0 ? (
        <p class="muted">None applied to this call.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Interceptor</th>
              <th scope="col">Phase</th>
              <th scope="col">Decision</th>
              <th scope="col">What it said or changed</th>
              <th scope="col" class="num">Time</th>
            </tr>
          </thead>
          <tbody>
            {e.interceptors.map((run, i) => (
              <tr key={i}>
                <td>
                  {run.name} <span class="muted">({run.kind})</span>
                </td>
                <td>{run.phase}</td>
                <td>
                  <Badge value={run.decision} />
                  {run.onError ? <span class="muted"> onError {run.onError}</span> : null}
                </td>
                <td>{interceptorNote(run)}</td>
                <td class="num">{ms(run.durationMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Result</h2>
      {e.result === null && !e.error ? <p class="muted">No result shown (none stored, or not shown to this role).</p> : <ResultView execution={e} />}
    </section>
  );
}

/** A run's failure, message or warning, and what it changed (paths and counts only). */
function interceptorNote(run: InterceptorRun): string {
  const parts = [run.failure, run.message, run.warning].filter((part): part is string => part !== undefined);
  if (run.changes?.paths?.length) parts.push(`changed ${run.changes.paths.join(', ')}`);
  const counts = Object.entries(run.changes?.counts ?? {});
  if (counts.length > 0) parts.push(counts.map(([kind, n]) => `${n} × ${kind}`).join(', '));
  if (run.changes?.truncated) parts.push('truncated');
  return parts.join('; ') || '—';
}
