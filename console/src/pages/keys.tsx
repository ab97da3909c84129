import { useState } from 'preact/hooks';
import { ApiError, describeError, send } from '../api.js';
import { Badge, ConfirmDialog, CopyButton, Empty, ErrorState, Loading, When } from '../components/common.js';
import { useResource } from '../hooks.js';
import type { ApiKey, ApiKeyPage, BodyOf, CreatedApiKey, Problem } from '../types.js';

const ROLES: ApiKey['role'][] = ['agent', 'operator', 'auditor', 'reviewer', 'admin'];
const list = (text: string) => {
  const items = text.split(/[\s,]+/).filter(Boolean);
  return items.length ? items : undefined;
};

/** API keys: create one (its key shown once), see them all, revoke with a confirmation. */
export function KeysPage() {
  const keys = useResource<ApiKeyPage>('/api/v1/api-keys?limit=100');
  const [name, setName] = useState('');
  const [role, setRole] = useState<ApiKey['role']>('agent');
  const [owner, setOwner] = useState('');
  const [sources, setSources] = useState('');
  const [tools, setTools] = useState('');
  const [groups, setGroups] = useState('');
  const [problems, setProblems] = useState<Problem[]>([]);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const create = async (event: Event) => {
    event.preventDefault();
    setProblems([]);
    setMessage(null);
    try {
      const key = await send<CreatedApiKey>('POST', '/api/v1/api-keys', { name, role, owner: owner || undefined, allowedSources: list(sources), allowedTools: list(tools), allowedGroups: list(groups) } satisfies BodyOf<'/api/v1/api-keys', 'post'>);
      setCreated(key);
      setName('');
      setOwner('');
      setSources('');
      setTools('');
      setGroups('');
      keys.reload();
    } catch (error) {
      if (error instanceof ApiError && error.details.length) setProblems(error.details);
      else setMessage(describeError(error));
    }
  };
  const problemsFor = (field: string) => problems.filter((problem) => problem.path.split(/[.[]/)[0] === field);
  const field = (id: string, label: string, value: string, onInput: (value: string) => void, help?: string) => (
    <div class="field">
      <label for={`key-${id}`}>{label}</label>
      <input id={`key-${id}`} value={value} onInput={(event) => onInput(event.currentTarget.value)} aria-invalid={problemsFor(id).length ? 'true' : undefined} aria-describedby={help ? `key-${id}-help` : undefined} />
      {help && (
        <p class="help" id={`key-${id}-help`}>
          {help}
        </p>
      )}
      {problemsFor(id).length > 0 && (
        <ul class="problems">
          {problemsFor(id).map((problem, index) => (
            <li key={index}>{problem.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
  return (
    <section aria-labelledby="keys-title">
      <div class="page-head">
        <h1 id="keys-title">API keys</h1>
      </div>
      {created?.key && (
        <div class="created-key" role="status">
          <p>
            <strong>Key for {created.name}</strong>: copy it now, it is not shown again.
          </p>
          <code class="secret-value">{created.key}</code> <CopyButton text={created.key} label="Copy key" />{' '}
          <button type="button" class="secondary small" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      <form class="card" onSubmit={create} aria-labelledby="new-key-title">
        <h2 id="new-key-title">New key</h2>
        <div class="field-row">
          {field('name', 'Name', name, setName)}
          <div class="field">
            <label for="key-role">Role</label>
            <select id="key-role" value={role} onChange={(event) => setRole(event.currentTarget.value as ApiKey['role'])}>
              {ROLES.map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </select>
          </div>
          {field('owner', 'Owner', owner, setOwner)}
        </div>
        <div class="field-row">
          {field('allowedSources', 'Allowed sources', sources, setSources, 'Patterns, * for any run of characters; empty: all.')}
          {field('allowedTools', 'Allowed tools', tools, setTools, 'Qualified names or patterns; empty: all.')}
          {field('allowedGroups', 'Only through groups', groups, setGroups, 'Tool group names or patterns: the key then sees tools only through them; empty: not bound.')}
        </div>
        <div class="actions">
          <button type="submit">Create key</button>
        </div>
      </form>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke ${revoking.name}?`}
          confirmLabel="Revoke"
          onClose={async (confirmed) => {
            const key = revoking;
            setRevoking(null);
            if (!confirmed) return;
            try {
              await send('DELETE', `/api/v1/api-keys/${key.id}`);
              setMessage(`Revoked ${key.name}.`);
              keys.reload();
            } catch (error) {
              setMessage(describeError(error));
            }
          }}
        >
          <p>
            Every request with the key <code>{revoking.prefix}…</code> ({revoking.role}) is refused from now on. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
      {keys.error !== undefined && <ErrorState error={keys.error} retry={keys.reload} />}
      {!keys.data && keys.error === undefined && <Loading />}
      {keys.data && keys.data.items.length === 0 && <Empty>No keys yet.</Empty>}
      {keys.data && keys.data.items.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="API keys table">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Key</th>
                <th scope="col">State</th>
                <th scope="col">Scope</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.items.map((key) => (
                <tr key={key.id}>
                  <td>
                    {key.name}
                    {key.owner ? <div class="muted">{key.owner}</div> : null}
                  </td>
                  <td>{key.role}</td>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>
                    <Badge value={key.state} />
                  </td>
                  <td>{[key.allowedSources?.length ? `sources ${key.allowedSources.join(', ')}` : '', key.allowedTools?.length ? `tools ${key.allowedTools.join(', ')}` : '', key.allowedGroups?.length ? `only through groups ${key.allowedGroups.join(', ')}` : ''].filter(Boolean).join('; ') || 'all'}</td>
                  <td>
                    <When at={key.lastUsedAt} />
                  </td>
                  <td>
                    {key.state === 'active' && (
                      <button type="button" class="danger small" aria-label={`Revoke ${key.name}`} onClick={() => setRevoking(key)}>
                        Revoke
                      </button>
                    )}
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
