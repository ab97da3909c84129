import { Badge, countOf, Empty, ErrorState, Link, Loading, When } from '../components/common.js';
import { useResource } from '../hooks.js';
import { useCan } from '../session-context.js';
import type { SourcePage } from '../types.js';

/** Every source at a glance: which are failing and why, refreshed every few seconds. */
export function SourcesPage() {
  const can = useCan();
  const sources = useResource<SourcePage>('/api/v1/sources?limit=200', 3000);
  const items = sources.data?.items ?? [];
  const failing = items.filter((source) => source.health === 'unhealthy' || source.health === 'degraded').length;
  return (
    <section aria-labelledby="sources-title">
      <div class="page-head">
        <h1 id="sources-title">Sources</h1>
        {can('sources:write') && (
          <Link to="/sources/new" class="button">
            Register a source
          </Link>
        )}
      </div>
      {sources.data && (
        <p class="summary" aria-live="polite">
          {countOf(items.length, 'source')}{failing > 0 ? `, ${failing} failing` : ', none failing'}
        </p>
      )}
      {sources.error !== undefined && <ErrorState error={sources.error} retry={sources.reload} />}
      {sources.loading && !sources.data && <Loading />}
      {sources.data && items.length === 0 && <Empty>No sources yet.{can('sources:write') ? ' Register one to discover its tools.' : ''}</Empty>}
      {items.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Sources table">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Health</th>
                <th scope="col">Circuit</th>
                <th scope="col">Transport</th>
                <th scope="col">Protocol</th>
                <th scope="col" class="num">Tools</th>
                <th scope="col">Last refresh</th>
                <th scope="col">Last error</th>
              </tr>
            </thead>
            <tbody>
              {items.map((source) => (
                <tr key={source.id} class={source.health === 'unhealthy' ? 'row-bad' : undefined}>
                  <td>
                    <Link to={`/sources/${encodeURIComponent(source.name)}`}>{source.name}</Link>
                    {!source.enabled && <Badge value="disabled" />}
                  </td>
                  <td>
                    <Badge value={source.health} />
                  </td>
                  <td>{source.circuit ? <Badge value={source.circuit.state} /> : '—'}</td>
                  <td>{source.transport}</td>
                  <td>{source.protocol ? `${source.protocol.era} (${source.protocol.version})` : '—'}</td>
                  <td class="num">{source.toolCount}</td>
                  <td>
                    <When at={source.lastRefreshAt} />
                  </td>
                  <td class="error-cell">{source.lastError ?? <span class="muted">none</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
