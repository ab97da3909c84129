import { useEffect, useRef, useState } from 'preact/hooks';
import { query, request } from '../api.js';
import { Badge, countOf, Empty, ErrorState, Link } from '../components/common.js';
import { VirtualList } from '../components/virtual-list.js';
import { useDebounced, useResource } from '../hooks.js';
import { setQuery } from '../router.js';
import { useCan } from '../session-context.js';
import type { SourcePage, Tool, ToolPage } from '../types.js';

/** The first page fills the screen and answers fast; the next ones, fetched while scrolling, are larger. */
const FIRST_PAGE = 30;
const PAGE = 200;

interface Filters {
  q: string;
  source: string;
  readOnly: string;
  enabled: string;
  status: string;
}

interface Listing {
  key: string;
  items: Tool[];
  nextCursor: string | null;
  loading: boolean;
  error: unknown;
}

function catalogPath(filters: Filters, cursor: string | null): string {
  return `/api/v1/tools${query({ q: filters.q.trim(), source: filters.source, readOnly: filters.readOnly, enabled: filters.enabled, status: filters.status, includeDisabledSources: filters.enabled !== 'true' ? true : undefined, limit: cursor ? PAGE : FIRST_PAGE, cursor })}`;
}

/**
 * The catalog: searched as you type (after a short pause; a newer search cancels the one under
 * way), filtered, shown in a virtualised list that loads further pages as it scrolls.
 */
export function CatalogPage() {
  const can = useCan();
  const initial = new URLSearchParams(location.search);
  const [filters, setFilters] = useState<Filters>({
    q: initial.get('q') ?? '', source: initial.get('source') ?? '', readOnly: initial.get('readOnly') ?? '', enabled: initial.get('enabled') ?? 'true', status: initial.get('status') ?? 'active',
  });
  const q = useDebounced(filters.q, 200);
  const effective = { ...filters, q };
  const key = JSON.stringify(effective);
  const sources = useResource<SourcePage>(can('sources:read') ? '/api/v1/sources?limit=200' : null);
  const [listing, setListing] = useState<Listing>({ key: '', items: [], nextCursor: null, loading: true, error: undefined });
  const inFlight = useRef<AbortController | null>(null);
  // The first page's ETag: polled with If-None-Match, a changed catalog is offered, not forced on a scrolled list.
  const etag = useRef<string | null>(null);
  const [changed, setChanged] = useState(false);
  // When the operator last changed a filter, and the summary line that reports how long the answer took to show.
  const changedAt = useRef(performance.now());
  const summary = useRef<HTMLParagraphElement>(null);

  const load = (cursor: string | null) => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setListing((previous) => ({ ...previous, loading: true }));
    request<ToolPage>(catalogPath(effective, cursor), { signal: controller.signal }).then(
      (answer) => {
        if (!cursor) {
          etag.current = answer.etag;
          setChanged(false);
        }
        setListing((previous) => ({
          key,
          items: cursor && previous.key === key ? [...previous.items, ...answer.body.items] : answer.body.items,
          nextCursor: answer.body.nextCursor,
          loading: false,
          error: undefined,
        }));
      },
      (error: unknown) => {
        if ((error as Error).name !== 'AbortError') setListing((previous) => ({ ...previous, loading: false, error }));
      },
    );
  };
  useEffect(() => {
    setQuery({ q, source: filters.source, readOnly: filters.readOnly, enabled: filters.enabled === 'true' ? '' : filters.enabled, status: filters.status === 'active' ? '' : filters.status });
    load(null);
    return () => inFlight.current?.abort();
  }, [key]);

  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible' || !etag.current) return;
      request<ToolPage>(catalogPath(effective, null), { etag: etag.current }).then(
        (answer) => answer.status !== 304 && answer.etag !== etag.current && setChanged(true),
        () => undefined,
      );
    }, 10_000);
    return () => clearInterval(timer);
  }, [key]);

  useEffect(() => {
    if (listing.key === key && !listing.loading && summary.current) summary.current.dataset.catalogMs = String(Math.round(performance.now() - changedAt.current));
  }, [listing]);

  const set = (patch: Partial<Filters>) => {
    changedAt.current = performance.now();
    setFilters((previous) => ({ ...previous, ...patch }));
  };
  const select = (id: string, label: string, value: string, options: [string, string][], onChange: (value: string) => void) => (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
  const current = listing.key === key;
  const count = listing.nextCursor ? `${listing.items.length}+ tools` : countOf(listing.items.length, 'tool');
  return (
    <section aria-labelledby="catalog-title" class="catalog">
      <div class="page-head">
        <h1 id="catalog-title">Catalog</h1>
      </div>
      <div class="filters" role="search">
        <div class="field grow">
          <label for="catalog-q">Search</label>
          <input id="catalog-q" type="search" placeholder="name, title or description" value={filters.q} onInput={(event) => set({ q: event.currentTarget.value })} />
        </div>
        {sources.data ? (
          select('catalog-source', 'Source', filters.source, [['', 'any'], ...sources.data.items.map((source): [string, string] => [source.name, source.name])], (value) => set({ source: value }))
        ) : (
          <div class="field">
            <label for="catalog-source">Source</label>
            <input id="catalog-source" value={filters.source} onChange={(event) => set({ source: event.currentTarget.value })} />
          </div>
        )}
        {select('catalog-readonly', 'Read-only', filters.readOnly, [['', 'any'], ['true', 'read-only'], ['false', 'not read-only']], (value) => set({ readOnly: value }))}
        {select('catalog-enabled', 'Enabled', filters.enabled, [['true', 'enabled'], ['false', 'disabled'], ['all', 'any']], (value) => set({ enabled: value }))}
        {select('catalog-status', 'Status', filters.status, [['active', 'active'], ['deprecated', 'deprecated'], ['all', 'any']], (value) => set({ status: value }))}
      </div>
      <p ref={summary} class="summary" aria-live="polite" data-catalog-state={current && !listing.loading ? 'ready' : 'loading'} data-catalog-key={listing.key}>
        {listing.loading && !current ? 'Searching…' : count}
      </p>
      {changed && (
        <p class="notice" role="status">
          The catalog has changed.{' '}
          <button type="button" class="secondary small" onClick={() => load(null)}>
            Show the new list
          </button>
        </p>
      )}
      {listing.error !== undefined && <ErrorState error={listing.error} retry={() => load(null)} />}
      {current && !listing.loading && listing.items.length === 0 && listing.error === undefined && <Empty>No tool matches.</Empty>}
      <VirtualList
        items={listing.items}
        rowHeight={60}
        label="Tools"
        onNearEnd={() => {
          if (listing.nextCursor && !listing.loading && current) load(listing.nextCursor);
        }}
        render={(tool) => (
          <div class="tool-row">
            <div class="tool-row-name">
              <Link to={`/catalog/${encodeURIComponent(tool.qualifiedName)}`}>{tool.qualifiedName}</Link>
              {tool.annotations?.readOnlyHint === true && <Badge value="active" label="read-only" />}
              {!tool.enabled && <Badge value="disabled" />}
              {tool.status !== 'active' && <Badge value={tool.status} />}
            </div>
            <div class="muted clamp">{tool.title ?? tool.description ?? ''}</div>
          </div>
        )}
      />
    </section>
  );
}
