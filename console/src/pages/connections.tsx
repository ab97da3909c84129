import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, describeError, get, query, send } from '../api.js';
import { Badge, ConfirmDialog, Empty, ErrorState, Loading, When } from '../components/common.js';
import { useResource } from '../hooks.js';
import { setQuery, useLocation } from '../router.js';
import type { ConnectLink, Problem, SourceConnection, SourceConnectionPage, SecretMetadata, UpstreamConnection, UpstreamConnectionPage, UserSecretPage } from '../types.js';

/** What the callback's `?error=CODE` means, for the codes it sends back here. */
const RETURN_ERRORS: Record<string, string> = {
  OAUTH_AUTHORIZATION_DENIED: 'The authorization server did not authorize the connection (consent was denied or refused).',
  OAUTH_GRANT_FAILED: 'The authorization server did not exchange the authorization for tokens.',
  OAUTH_CLIENT_CHANGED: "The source's OAuth settings changed while you were connecting: connect again.",
  SOURCE_NOT_FOUND: 'The source no longer exists.',
};

const scopesOf = (scopes: string[] | null | undefined) => (scopes?.length ? scopes.join(' ') : '—');

/**
 * Asks Toolplane for a source's consent link (its JSON form) and goes there; the authorization
 * server sends the browser back to this page with `?connected=NAME` or `?error=…`.
 */
async function connectTo(source: string): Promise<void> {
  const link = await get<ConnectLink>(`/api/v1/sources/${encodeURIComponent(source)}/connect${query({ returnTo: '/console/connections' })}`);
  location.assign(link.authorizationUrl);
}

/**
 * The caller's own upstream credentials: its connections to sources that sign in per user
 * (connect, see scopes and expiry, disconnect), and its own secret values for sources that refer
 * to `${user-secret:NAME}` (set or replace, never shown back; delete).
 */
export function ConnectionsPage() {
  const { search } = useLocation();
  // What the authorization server's return said, kept after the address is cleaned of it.
  const [returned] = useState(() => ({ connected: search.get('connected'), error: search.get('error') }));
  useEffect(() => {
    if (returned.connected !== null || returned.error !== null) setQuery({});
  }, [returned]);
  const connections = useResource<UpstreamConnectionPage>('/api/v1/me/connections');
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [disconnecting, setDisconnecting] = useState<UpstreamConnection | null>(null);

  const connect = async (source: string) => {
    setBusy(source);
    setMessage(null);
    try {
      await connectTo(source);
    } catch (error) {
      setMessage(describeError(error));
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="connections-title">
      <div class="page-head">
        <h1 id="connections-title">Connections</h1>
      </div>
      <p class="muted">Sources that sign in as each user call upstream with your own credential: connect once, and your calls through Toolplane use it.</p>
      {returned.connected !== null && (
        <p class="ok" role="status">
          Connected to <strong>{returned.connected}</strong>.
        </p>
      )}
      {returned.error !== null && (
        <div class="state state-error" role="alert">
          <strong>Not connected</strong>
          <p>
            {RETURN_ERRORS[returned.error] ?? 'Connecting failed.'} ({returned.error})
          </p>
        </div>
      )}
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      {disconnecting && (
        <ConfirmDialog
          title={`Disconnect from ${disconnecting.source}?`}
          confirmLabel="Disconnect"
          onClose={async (confirmed) => {
            const connection = disconnecting;
            setDisconnecting(null);
            if (!confirmed) return;
            try {
              await send('DELETE', `/api/v1/me/connections/${encodeURIComponent(connection.source)}`);
              setMessage(`Disconnected from ${connection.source}.`);
              connections.reload();
            } catch (error) {
              setMessage(describeError(error));
            }
          }}
        >
          <p>Toolplane revokes your tokens upstream (when {disconnecting.source} offers that) and forgets them. Your calls to its tools are refused until you connect again.</p>
        </ConfirmDialog>
      )}
      {connections.error !== undefined && <ErrorState error={connections.error} retry={connections.reload} />}
      {!connections.data && connections.error === undefined && <Loading />}
      {connections.data && connections.data.items.length === 0 && <Empty>No source signs in per user.</Empty>}
      {connections.data && connections.data.items.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Your connections">
          <table>
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col">Status</th>
                <th scope="col">Scopes</th>
                <th scope="col">Expires</th>
                <th scope="col">Connected</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {connections.data.items.map((connection) => (
                <tr key={connection.source}>
                  <td>{connection.source}</td>
                  <td>
                    {connection.mode === 'oauth' ? <Badge value={connection.status} /> : '—'}
                  </td>
                  <td>{scopesOf(connection.scopes)}</td>
                  <td>{connection.expiresAt ? <Until at={connection.expiresAt} /> : '—'}</td>
                  <td>
                    <When at={connection.connectedAt} />
                  </td>
                  <td>
                    <ConnectionActions connection={connection} busy={busy === connection.source} onConnect={() => void connect(connection.source)} onDisconnect={() => setDisconnecting(connection)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <MySecrets />
    </section>
  );
}

function ConnectionActions(props: { connection: UpstreamConnection; busy: boolean; onConnect: () => void; onDisconnect: () => void }) {
  const { connection } = props;
  // Only an OAuth source is connected to here; the others sign in with one's own values or identity.
  if (connection.mode === 'user-secret') return <span class="muted">Uses your own values (My secrets, below)</span>;
  if (connection.mode === 'token-exchange') return <span class="muted">Uses your OIDC sign-in</span>;
  return (
    <span class="toolbar">
      <button type="button" class="small" disabled={props.busy} aria-label={`${connection.status === 'not_connected' ? 'Connect' : 'Reconnect'} ${connection.source}`} onClick={props.onConnect}>
        {props.busy ? 'Opening…' : connection.status === 'not_connected' ? 'Connect' : 'Reconnect'}
      </button>
      {connection.status !== 'not_connected' && (
        <button type="button" class="danger small" aria-label={`Disconnect ${connection.source}`} onClick={props.onDisconnect}>
          Disconnect
        </button>
      )}
    </span>
  );
}

/** A time to come (or gone): `in 42 min`, `expired 3 min ago`. */
function Until(props: { at: string }) {
  const date = new Date(props.at);
  const minutes = Math.round((date.getTime() - Date.now()) / 60_000);
  const text = minutes < 0 ? `expired ${-minutes} min ago` : minutes < 120 ? `in ${minutes} min` : date.toLocaleString();
  return (
    <time dateTime={props.at} title={date.toISOString()}>
      {text}
    </time>
  );
}

/** The caller's own secret values: names listed, values written once and never read back. */
function MySecrets() {
  const secrets = useResource<UserSecretPage>('/api/v1/me/secrets');
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [problems, setProblems] = useState<Problem[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<SecretMetadata | null>(null);
  const valueInput = useRef<HTMLInputElement>(null);

  const save = async (event: Event) => {
    event.preventDefault();
    setProblems([]);
    setMessage(null);
    try {
      const saved = await send<SecretMetadata>('PUT', `/api/v1/me/secrets/${encodeURIComponent(name)}`, { value });
      setMessage(`Saved your value of ${saved.name}.`);
      setName('');
      secrets.reload();
    } catch (error) {
      if (error instanceof ApiError && error.details.length) setProblems(error.details);
      else setMessage(describeError(error));
    } finally {
      // The value is never kept in the page longer than the request.
      setValue('');
    }
  };
  const problemsFor = (field: string) => problems.filter((problem) => problem.path === field || (field === 'name' && problem.path === ''));

  return (
    <section aria-labelledby="my-secrets-title">
      <h2 id="my-secrets-title">My secrets</h2>
      <p class="muted">
        Your own values for sources that refer to <code>{'${user-secret:NAME}'}</code>: stored encrypted, used for your calls only, never shown again.
      </p>
      <form class="card" onSubmit={save} aria-labelledby="my-secret-form-title">
        <h3 id="my-secret-form-title">Set a value</h3>
        <div class="field-row">
          <div class="field">
            <label for="my-secret-name">Name</label>
            <input id="my-secret-name" required value={name} autoComplete="off" onInput={(event) => setName(event.currentTarget.value)} aria-invalid={problemsFor('name').length ? 'true' : undefined} />
            <Problems items={problemsFor('name')} />
          </div>
          <div class="field">
            <label for="my-secret-value">Value</label>
            <input id="my-secret-value" ref={valueInput} type="password" required autoComplete="new-password" value={value} onInput={(event) => setValue(event.currentTarget.value)} aria-invalid={problemsFor('value').length ? 'true' : undefined} />
            <Problems items={problemsFor('value')} />
          </div>
        </div>
        <div class="actions">
          <button type="submit">Save value</button>
        </div>
      </form>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete your ${deleting.name}?`}
          confirmLabel="Delete"
          onClose={async (confirmed) => {
            const secret = deleting;
            setDeleting(null);
            if (!confirmed) return;
            try {
              await send('DELETE', `/api/v1/me/secrets/${encodeURIComponent(secret.name)}`);
              setMessage(`Deleted your value of ${secret.name}.`);
              secrets.reload();
            } catch (error) {
              setMessage(describeError(error));
            }
          }}
        >
          <p>Your calls to sources that need {deleting.name} are refused until you set it again.</p>
        </ConfirmDialog>
      )}
      {secrets.error !== undefined && <ErrorState error={secrets.error} retry={secrets.reload} />}
      {!secrets.data && secrets.error === undefined && <Loading />}
      {secrets.data && secrets.data.items.length === 0 && <Empty>No values of yours yet.</Empty>}
      {secrets.data && secrets.data.items.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Your secret values">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Set</th>
                <th scope="col">Changed</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {secrets.data.items.map((secret) => (
                <tr key={secret.name}>
                  <td>
                    <code>{secret.name}</code>
                  </td>
                  <td>
                    <When at={secret.createdAt} />
                  </td>
                  <td>
                    <When at={secret.updatedAt} />
                  </td>
                  <td>
                    <span class="toolbar">
                      <button
                        type="button"
                        class="secondary small"
                        aria-label={`Replace ${secret.name}`}
                        onClick={() => {
                          setName(secret.name);
                          valueInput.current?.focus();
                        }}
                      >
                        Replace
                      </button>
                      <button type="button" class="danger small" aria-label={`Delete ${secret.name}`} onClick={() => setDeleting(secret)}>
                        Delete
                      </button>
                    </span>
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

function Problems(props: { items: Problem[] }) {
  if (props.items.length === 0) return null;
  return (
    <ul class="problems">
      {props.items.map((problem, index) => (
        <li key={index}>{problem.message}</li>
      ))}
    </ul>
  );
}

/**
 * Every principal's connection to one source, for an admin on the source's page: who, status,
 * scopes, expiry; revoke one.
 */
export function SourceConnections(props: { source: string }) {
  const path = `/api/v1/sources/${encodeURIComponent(props.source)}/connections`;
  const connections = useResource<SourceConnectionPage>(path, 10_000);
  const [revoking, setRevoking] = useState<SourceConnection | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const who = (connection: SourceConnection) => connection.principalName ?? connection.principalId;
  return (
    <section aria-labelledby="source-connections-title">
      <h2 id="source-connections-title">Connections</h2>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke ${who(revoking)}'s connection?`}
          confirmLabel="Revoke"
          onClose={async (confirmed) => {
            const connection = revoking;
            setRevoking(null);
            if (!confirmed) return;
            try {
              await send('DELETE', `${path}/${encodeURIComponent(connection.principalId)}`);
              setMessage(`Revoked ${who(connection)}'s connection.`);
              connections.reload();
            } catch (error) {
              setMessage(describeError(error));
            }
          }}
        >
          <p>
            Toolplane revokes the tokens upstream (when {props.source} offers that) and forgets them; {who(revoking)}'s calls are refused until they connect again.
          </p>
        </ConfirmDialog>
      )}
      {connections.error !== undefined && <ErrorState error={connections.error} retry={connections.reload} />}
      {connections.data && connections.data.items.length === 0 && <Empty>Nobody is connected yet.</Empty>}
      {connections.data && connections.data.items.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Connections to this source">
          <table>
            <thead>
              <tr>
                <th scope="col">Principal</th>
                <th scope="col">Status</th>
                <th scope="col">Scopes</th>
                <th scope="col">Expires</th>
                <th scope="col">Connected</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {connections.data.items.map((connection) => (
                <tr key={connection.principalId}>
                  <td title={connection.principalId}>{who(connection)}</td>
                  <td>
                    <Badge value={connection.status} />
                  </td>
                  <td>{scopesOf(connection.scopes)}</td>
                  <td>{connection.expiresAt ? <Until at={connection.expiresAt} /> : '—'}</td>
                  <td>
                    <When at={connection.connectedAt} />
                  </td>
                  <td>
                    <button type="button" class="danger small" aria-label={`Revoke ${who(connection)}'s connection`} onClick={() => setRevoking(connection)}>
                      Revoke
                    </button>
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
