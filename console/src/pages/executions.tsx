import { useEffect, useRef, useState } from 'preact/hooks';
import { query, request } from '../api.js';
import { Empty, ErrorState, Loading } from '../components/common.js';
import { useDebounced } from '../hooks.js';
import { setQuery } from '../router.js';
import type { Execution, ExecutionPage } from '../types.js';
import { ExecutionRows } from './source-page.js';

const STATUSES: Execution['status'][] = ['succeeded', 'tool_error', 'invalid_arguments', 'rejected', 'circuit_open', 'timeout', 'upstream_error', 'cancelled', 'input_required', 'interrupted', 'working', 'pending_approval', 'awaiting_input'];

interface Filters {
  tool: string;
  source: string;
  status: string;
  caller: string;
  since: string;
  until: string;
}

const iso = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** The call history: filtered, paged, and — when following — new calls added as they arrive. */
export function ExecutionsPage() {
  const initial = new URLSearchParams(location.search);
  const [filters, setFilters] = useState<Filters>({
    tool: initial.get('tool') ?? '', source: initial.get('source') ?? '', status: initial.get('status') ?? '', caller: initial.get('caller') ?? '', since: initial.get('since') ?? '', until: initial.get('until') ?? '',
  });
  const [follow, setFollow] = useState(true);
  const settled = useDebounced(filters, 300);
  const [items, setItems] = useState<Execution[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const base = { tool: settled.tool, source: settled.source, status: settled.status, caller: settled.caller, since: iso(settled.since), until: iso(settled.until), limit: 50 };

  useEffect(() => {
    setQuery({ ...settled });
    const mine = ++generation.current;
    setLoading(true);
    request<ExecutionPage>(`/api/v1/executions${query(base)}`).then(
      (answer) => {
        if (mine !== generation.current) return;
        setItems(answer.body.items);
        setCursor(answer.body.nextCursor);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (mine !== generation.current) return;
        setError(failure);
        setLoading(false);
      },
    );
  }, [JSON.stringify(settled)]);

  // Following: the newest page again every two seconds (a 304 when nothing changed); calls not shown yet go on top.
  useEffect(() => {
    if (!follow || settled.until) return;
    let etag: string | undefined;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      const mine = generation.current;
      request<ExecutionPage>(`/api/v1/executions${query(base)}`, { etag }).then(
        (answer) => {
          if (mine !== generation.current || answer.status === 304) return;
          etag = answer.etag ?? undefined;
          setItems((previous) => {
            const known = new Set(previous.map((execution) => execution.id));
            const fresh = answer.body.items.filter((execution) => !known.has(execution.id));
            const updated = new Map(answer.body.items.map((execution) => [execution.id, execution]));
            return fresh.length || previous.some((execution) => updated.has(execution.id) && updated.get(execution.id)!.status !== execution.status)
              ? [...fresh, ...previous.map((execution) => updated.get(execution.id) ?? execution)]
              : previous;
          });
          setError(undefined);
        },
        (failure: unknown) => setError(failure),
      );
    }, 2000);
    return () => clearInterval(timer);
  }, [follow, JSON.stringify(settled)]);

  const older = async () => {
    if (!cursor) return;
    const answer = await request<ExecutionPage>(`/api/v1/executions${query({ ...base, cursor })}`);
    setItems((previous) => [...previous, ...answer.body.items]);
    setCursor(answer.body.nextCursor);
  };
  const set = (patch: Partial<Filters>) => setFilters((previous) => ({ ...previous, ...patch }));
  const input = (field: keyof Filters, label: string, type: 'text' | 'datetime-local' = 'text') => (
    <div class="field">
      <label for={`executions-${field}`}>{label}</label>
      <input id={`executions-${field}`} type={type as 'text'} value={filters[field]} onInput={(event) => set({ [field]: event.currentTarget.value })} />
    </div>
  );
  return (
    <section aria-labelledby="executions-title">
      <div class="page-head">
        <h1 id="executions-title">Executions</h1>
        <div class="field checkbox">
          <input id="follow" type="checkbox" checked={follow} onChange={(event) => setFollow(event.currentTarget.checked)} />
          <label for="follow">Follow new calls</label>
        </div>
      </div>
      <div class="filters" role="search">
        {input('tool', 'Tool')}
        {input('source', 'Source')}
        <div class="field">
          <label for="executions-status">Status</label>
          <select id="executions-status" value={filters.status} onChange={(event) => set({ status: event.currentTarget.value })}>
            <option value="">any</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {status.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </div>
        {input('caller', 'Caller (principal id)')}
        {input('since', 'Since', 'datetime-local')}
        {input('until', 'Until', 'datetime-local')}
      </div>
      {error !== undefined && <ErrorState error={error} />}
      {loading && items.length === 0 && <Loading />}
      {!loading && items.length === 0 && error === undefined && <Empty>No calls match{follow ? ' yet; new ones appear here as they arrive' : ''}.</Empty>}
      {items.length > 0 && <ExecutionRows items={items} />}
      {cursor && (
        <div class="actions">
          <button type="button" class="secondary" onClick={older}>
            Load older calls
          </button>
        </div>
      )}
    </section>
  );
}
