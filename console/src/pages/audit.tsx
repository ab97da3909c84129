import { useState } from 'preact/hooks';
import { query } from '../api.js';
import { Badge, countOf, Empty, ErrorState, JsonView, Loading, When } from '../components/common.js';
import { useDebounced, useResource } from '../hooks.js';
import type { AuditChainReport, AuditEventPage, ExecutionChainReport } from '../types.js';

const ACTIONS = ['source.registered', 'source.updated', 'source.enabled', 'source.disabled', 'source.removed', 'source.refreshed', 'source.validated', 'source.access-refused', 'tool.enabled', 'tool.disabled', 'secret.put', 'secret.deleted', 'api-key.created', 'api-key.revoked', 'api-key.updated', 'config.applied'];

/** Who changed what: the audit trail, filtered, with the signed chain's verification. */
export function AuditPage() {
  const [action, setAction] = useState('');
  const [actor, setActor] = useState('');
  const [target, setTarget] = useState('');
  const settledActor = useDebounced(actor, 300);
  const settledTarget = useDebounced(target, 300);
  const events = useResource<AuditEventPage>(`/api/v1/audit-events${query({ action, actor: settledActor, target: settledTarget, limit: 100 })}`, 5000);
  const chain = useResource<AuditChainReport>('/api/v1/audit-events/verify', 30_000);
  const executionChain = useResource<ExecutionChainReport>('/api/v1/executions/verify', 30_000);
  return (
    <section aria-labelledby="audit-title">
      <div class="page-head">
        <h1 id="audit-title">Audit trail</h1>
      </div>
      <div class="chain" role="status">
        {chain.error !== undefined && <ErrorState error={chain.error} />}
        {chain.data &&
          (chain.data.intact ? (
            <p>
              <Badge value="intact" /> The chain is intact: {countOf(chain.data.events, 'event')} verified{chain.data.head ? `, head #${chain.data.head.seq} ${chain.data.head.hash.slice(0, 16)}…` : ''}.
            </p>
          ) : (
            <p>
              <Badge value="broken" label="broken" /> The chain is broken at event #{chain.data.firstProblem?.seq}: {chain.data.firstProblem?.problem} ({chain.data.firstProblem?.detail}).
            </p>
          ))}
        {executionChain.data &&
          (executionChain.data.intact ? (
            <p>
              <Badge value="intact" /> The execution history’s chain is intact: {executionChain.data.events} records linked, {executionChain.data.pending} waiting to be linked.
            </p>
          ) : (
            <p>
              <Badge value="broken" label="broken" /> The execution history’s chain is broken at #{executionChain.data.firstProblem?.seq}: {executionChain.data.firstProblem?.problem} ({executionChain.data.firstProblem?.detail}).
            </p>
          ))}
      </div>
      <div class="filters" role="search">
        <div class="field">
          <label for="audit-action">Action</label>
          <select id="audit-action" value={action} onChange={(event) => setAction(event.currentTarget.value)}>
            <option value="">any</option>
            {ACTIONS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="audit-actor">Actor</label>
          <input id="audit-actor" value={actor} onInput={(event) => setActor(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="audit-target">Target (id or name)</label>
          <input id="audit-target" value={target} onInput={(event) => setTarget(event.currentTarget.value)} />
        </div>
      </div>
      {events.error !== undefined && <ErrorState error={events.error} retry={events.reload} />}
      {!events.data && events.error === undefined && <Loading />}
      {events.data && events.data.items.length === 0 && <Empty>No events match.</Empty>}
      {events.data && events.data.items.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Audit events">
          <table>
            <thead>
              <tr>
                <th scope="col" class="num">#</th>
                <th scope="col">When</th>
                <th scope="col">Actor</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {events.data.items.map((event) => (
                <tr key={event.id}>
                  <td class="num">{event.seq}</td>
                  <td>
                    <When at={event.occurredAt} />
                  </td>
                  <td>{event.actor}</td>
                  <td>{event.action}</td>
                  <td>
                    {event.targetType} {event.targetName ?? event.targetId}
                  </td>
                  <td>
                    {event.details ? (
                      <details>
                        <summary>details</summary>
                        <JsonView value={event.details} label={`Details of event ${event.seq}`} />
                      </details>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
