import { useState } from 'preact/hooks';
import { describeError, query, send } from '../api.js';
import { Badge, ConfirmDialog, countOf, Empty, ErrorState, Link, Loading, When, ms } from '../components/common.js';
import { useResource } from '../hooks.js';
import { SourceConnections } from './connections.js';
import { navigate } from '../router.js';
import { useCan } from '../session-context.js';
import type { AuditEventPage, Execution, ExecutionPage, InventoryChanges, Source, SourceChanges, ToolPage } from '../types.js';

/** One source: its state, what can be done to it, its tools, its recent calls and its refreshes. */
export function SourcePage(props: { name: string }) {
  const can = useCan();
  const path = `/api/v1/sources/${encodeURIComponent(props.name)}`;
  const source = useResource<Source>(path, 3000);
  const tools = useResource<ToolPage>(`/api/v1/tools${query({ source: props.name, status: 'all', enabled: 'all', includeDisabledSources: true, limit: 500 })}`, 10_000);
  const executions = useResource<ExecutionPage>(can('executions:read') ? `/api/v1/executions${query({ source: props.name, limit: 20 })}` : null, 5000);
  const refreshes = useResource<AuditEventPage>(can('audit:read') ? `/api/v1/audit-events${query({ target: props.name, targetType: 'source', limit: 20 })}` : null, 10_000);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const act = async (label: string, run: () => Promise<string>) => {
    setBusy(label);
    setMessage(null);
    try {
      setMessage(await run());
      source.reload();
      tools.reload();
      refreshes.reload();
    } catch (error) {
      setMessage(describeError(error));
    } finally {
      setBusy(null);
    }
  };

  if (source.error && !source.data) return <ErrorState error={source.error} retry={source.reload} />;
  if (!source.data) return <Loading />;
  const s = source.data;
  const writable = can('sources:write');
  const perUser = signsInPerUser(s);
  return (
    <section aria-labelledby="source-title">
      <div class="page-head">
        <h1 id="source-title">
          {s.name} <Badge value={s.health} /> {!s.enabled && <Badge value="disabled" />}
        </h1>
        <Link to="/sources">All sources</Link>
      </div>
      {s.description && <p>{s.description}</p>}
      {s.health === 'awaiting_connection' && (
        <p class="notice" role="status">
          Its tools are discovered once the principal that registered it connects: <Link to="/connections">Connections</Link>.
        </p>
      )}
      {writable && (
        <div class="toolbar" role="group" aria-label="Source actions">
          <button type="button" disabled={busy !== null} onClick={() => act('refresh', async () => {
            const changes = await send<InventoryChanges>('POST', `${path}/refresh`);
            return `Refreshed: ${Object.entries(changes).map(([kind, count]) => `${count} ${kind}`).join(', ')}.`;
          })}>
            {busy === 'refresh' ? 'Refreshing…' : 'Refresh now'}
          </button>
          <button type="button" class="secondary" disabled={busy !== null} onClick={() => act('toggle', async () => {
            await send('PATCH', path, { enabled: !s.enabled, version: s.version } satisfies SourceChanges);
            return s.enabled ? 'Disabled.' : 'Enabled.';
          })}>
            {s.enabled ? 'Disable' : 'Enable'}
          </button>
          <Link to={`/sources/${encodeURIComponent(s.name)}/edit`} class="button secondary">
            Edit
          </Link>
          <button type="button" class="danger" disabled={busy !== null} onClick={() => setConfirming(true)}>
            Remove
          </button>
        </div>
      )}
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title={`Remove ${s.name}?`}
          confirmLabel={`Remove ${s.name}`}
          onClose={(confirmed) => {
            setConfirming(false);
            if (confirmed)
              void act('remove', async () => {
                await send('DELETE', path);
                navigate('/sources');
                return 'Removed.';
              });
          }}
        >
          <p>
            Its {countOf(s.toolCount, 'tool')} {s.toolCount === 1 ? 'leaves' : 'leave'} the catalog and every agent loses {s.toolCount === 1 ? 'it' : 'them'}{s.transport === 'stdio' ? '; its processes are stopped' : '; its connections are closed'}. Its history is kept.
          </p>
        </ConfirmDialog>
      )}
      <dl class="facts">
        <dt>Transport</dt>
        <dd>{s.transport}{s.lifecycle && s.transport === 'stdio' ? ` (${s.lifecycle})` : ''}</dd>
        <dt>{s.transport === 'stdio' ? 'Command' : 'URL'}</dt>
        <dd>
          <code>{s.transport === 'stdio' ? [s.command, ...(s.args ?? [])].filter(Boolean).join(' ') || s.pluginDir : s.url}</code>
        </dd>
        <dt>Protocol</dt>
        <dd>{s.protocol ? `${s.protocol.era} (${s.protocol.version})` : '—'}{s.serverInfo ? `, ${[s.serverInfo.name, s.serverInfo.version].filter(Boolean).join(' ')}` : ''}</dd>
        <dt>Circuit</dt>
        <dd>{s.circuit ? <Badge value={s.circuit.state} /> : '—'}</dd>
        <dt>Last refresh</dt>
        <dd>
          <When at={s.lastRefreshAt} />
        </dd>
        <dt>Last error</dt>
        <dd class="error-cell">{s.lastError ?? 'none'}</dd>
        <dt>Signs in upstream</dt>
        <dd>{perUser ? `per user (${perUser})` : 'shared'}</dd>
        <dt>Read-only</dt>
        <dd>{s.readOnly ? 'yes' : 'no'}</dd>
        <dt>Environment</dt>
        <dd>{s.env?.length ? s.env.map((v) => `${v.name} (${v.origin}${v.isSecret ? ', secret' : ''})`).join(', ') : 'none'}</dd>
        {s.headers?.length > 0 && (
          <>
            <dt>Headers</dt>
            <dd>{s.headers.map((v) => v.name).join(', ')} (values never shown)</dd>
          </>
        )}
      </dl>
      {perUser && can('keys:manage') && <SourceConnections source={s.name} />}
      <h2>Tools ({tools.data?.items.length ?? '…'})</h2>
      {tools.error !== undefined && <ErrorState error={tools.error} />}
      {tools.data && tools.data.items.length === 0 && <Empty>No tools discovered.</Empty>}
      {tools.data && tools.data.items.length > 0 && (
        <ul class="tool-grid">
          {tools.data.items.map((tool) => (
            <li key={tool.id}>
              <Link to={`/catalog/${encodeURIComponent(tool.qualifiedName)}`}>{tool.name}</Link> {tool.status !== 'active' && <Badge value={tool.status} />}
              {!tool.enabled && <Badge value="disabled" />}
              {tool.unusableReason && <Badge value="unusable" />}
              <span class="muted clamp">{tool.title ?? tool.description ?? ''}</span>
            </li>
          ))}
        </ul>
      )}
      {can('executions:read') && (
        <>
          <h2>Recent executions</h2>
          {executions.data && executions.data.items.length === 0 && <Empty>No calls yet.</Empty>}
          {executions.data && executions.data.items.length > 0 && <ExecutionRows items={executions.data.items} />}
        </>
      )}
      {can('audit:read') && (
        <>
          <h2>Refresh and change history</h2>
          {refreshes.data && refreshes.data.items.length === 0 && <Empty>Nothing recorded.</Empty>}
          {refreshes.data && refreshes.data.items.length > 0 && (
            <ul class="history">
              {refreshes.data.items.map((event) => (
                <li key={event.id}>
                  <When at={event.occurredAt} /> <strong>{event.action}</strong> by {event.actor}
                  {event.action === 'source.refreshed' && summarize(event.details)}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

/** How a source signs in per user (`oauth`, `token-exchange`, `user-secret`), or null when it shares one credential. */
function signsInPerUser(source: Source): string | null {
  const mode = source.upstreamAuth?.mode;
  return mode && mode !== 'shared' ? mode : null;
}

function summarize(details: unknown): string {
  if (!details || typeof details !== 'object') return '';
  const counts = Object.entries(details as Record<string, unknown>).filter(([, value]) => typeof value === 'number');
  return counts.length ? `: ${counts.map(([kind, value]) => `${value} ${kind}`).join(', ')}` : '';
}

export function ExecutionRows(props: { items: Execution[] }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Executions table">
      <table>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Tool</th>
            <th scope="col">Status</th>
            <th scope="col">Caller</th>
            <th scope="col" class="num">Duration</th>
          </tr>
        </thead>
        <tbody>
          {props.items.map((execution) => (
            <tr key={execution.id}>
              <td>
                <Link to={`/executions/${execution.id}`}>
                  <When at={execution.startedAt} />
                </Link>
              </td>
              <td>{execution.qualifiedName}</td>
              <td>
                <Badge value={execution.status} />
              </td>
              <td>{execution.caller?.principalName ?? '—'}</td>
              <td class="num">{ms(execution.durationMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
