import { useState } from 'preact/hooks';
import { describeError, query, send } from '../api.js';
import { Badge, Empty, ErrorState, JsonView, Link, Loading, When, ms } from '../components/common.js';
import { Visible } from '../components/hostile-text.js';
import { useResource } from '../hooks.js';
import { setQuery, useLocation } from '../router.js';
import type { Approval, ApprovalDetail, ApprovalPage } from '../types.js';

const STATUSES = ['pending', 'approved', 'denied', 'expired'] as const;
/** The annotations that say a tool may change or destroy something: shown first, and marked. */
const ALARMING: Readonly<Record<string, boolean>> = { destructiveHint: true, openWorldHint: true, readOnlyHint: false, idempotentHint: false };

/** The approvals inbox: calls held until a person decides, each opened to the call it would make and decided with a comment. */
export function ApprovalsPage() {
  const { search } = useLocation();
  const [status, setStatus] = useState(search.get('status') ?? 'pending');
  const [open, setOpen] = useState<string | null>(search.get('id'));
  const [message, setMessage] = useState<string | null>(null);
  const approvals = useResource<ApprovalPage>(`/api/v1/approvals${query({ status, limit: 100 })}`, 5000);
  const filter = (next: string) => {
    setStatus(next);
    setQuery({ status: next });
  };
  return (
    <section aria-labelledby="approvals-title">
      <div class="page-head">
        <h1 id="approvals-title">Approvals</h1>
      </div>
      <form class="filters" role="search" aria-label="Filter approvals" onSubmit={(event) => event.preventDefault()}>
        <div class="field">
          <label for="approvals-status">Status</label>
          <select id="approvals-status" value={status} onChange={(event) => filter(event.currentTarget.value)}>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
      </form>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      {approvals.error !== undefined && <ErrorState error={approvals.error} retry={approvals.reload} />}
      {!approvals.data && approvals.error === undefined && <Loading />}
      {approvals.data && approvals.data.items.length === 0 && <Empty>No {status} approvals.</Empty>}
      {approvals.data && approvals.data.items.length > 0 && (
        <ul class="plain reviews">
          {approvals.data.items.map((approval) => (
            <li key={approval.id}>
              <ApprovalItem
                approval={approval}
                open={open === approval.id}
                onToggle={() => setOpen(open === approval.id ? null : approval.id)}
                onDecided={(text) => {
                  setMessage(text);
                  setOpen(null);
                  approvals.reload();
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ApprovalItem(props: { approval: Approval; open: boolean; onToggle: () => void; onDecided: (message: string) => void }) {
  const { approval } = props;
  const headingId = `approval-${approval.id}-title`;
  return (
    <article class="card review" aria-labelledby={headingId}>
      <div class="review-head">
        <h2 id={headingId}>
          <Visible text={approval.tool.qualifiedName} />
        </h2>
        <span class="muted">
          called by {approval.caller.principalName}, <When at={approval.createdAt} />
          {approval.status === 'pending' && (
            <>
              , expires <time dateTime={approval.expiresAt}>{new Date(approval.expiresAt).toLocaleString()}</time>
            </>
          )}
        </span>
        <Badge value={approval.status === 'pending' ? 'degraded' : approval.status === 'approved' ? 'active' : approval.status === 'denied' ? 'deny' : 'expired'} label={approval.status} />
        <button type="button" class="secondary small" aria-expanded={props.open} aria-controls={`approval-${approval.id}-body`} onClick={props.onToggle}>
          {props.open ? 'Close' : 'Open'} <span class="visually-hidden">the call of {approval.tool.qualifiedName}</span>
        </button>
      </div>
      {approval.message && (
        <p>
          <Visible text={approval.message} />
        </p>
      )}
      {props.open && (
        <div id={`approval-${approval.id}-body`}>
          <ApprovalBody id={approval.id} onDecided={props.onDecided} />
        </div>
      )}
    </article>
  );
}

/** The call as the approver must see it: what it runs, with what, for whom, and what that caller did lately. */
function ApprovalBody(props: { id: string; onDecided: (message: string) => void }) {
  const detail = useResource<ApprovalDetail>(`/api/v1/approvals/${encodeURIComponent(props.id)}`);
  if (detail.error !== undefined) return <ErrorState error={detail.error} retry={detail.reload} />;
  if (!detail.data) return <Loading />;
  const a = detail.data;
  const annotations = Object.entries(a.tool.annotations ?? {}).sort(([x], [y]) => Number(y in ALARMING) - Number(x in ALARMING));
  return (
    <div class="review-body">
      <dl class="facts">
        <dt>Tool</dt>
        <dd>
          <Link to={`/catalog/${encodeURIComponent(a.tool.qualifiedName)}`}>
            <Visible text={a.tool.qualifiedName} />
          </Link>
          {` (source ${a.tool.source})`}
          {a.group ? `, through group ${a.group}` : ''}
        </dd>
        <dt>Caller</dt>
        <dd>
          {a.caller.principalName} <span class="muted">({a.caller.principalId})</span>
          {a.caller.clientName ? (
            <>
              , client <Visible text={a.caller.clientName} />
            </>
          ) : null}
        </dd>
        <dt>Asked by</dt>
        <dd>
          interceptor <Link to={`/interceptors/${encodeURIComponent(a.interceptor)}`}>{a.interceptor}</Link>
        </dd>
        <dt>Execution</dt>
        <dd>
          <Link to={`/executions/${encodeURIComponent(a.executionId)}`}>
            <code>{a.executionId}</code>
          </Link>
        </dd>
      </dl>
      <h3>Description</h3>
      {a.tool.description ? (
        <p class="diff-text">
          <Visible text={a.tool.description} />
        </p>
      ) : (
        <p class="muted">The tool has no description.</p>
      )}
      <h3>Annotations</h3>
      {annotations.length === 0 ? (
        <p class="muted">None: nothing is promised about what the tool does.</p>
      ) : (
        <ul class="plain badges" aria-label="Annotations">
          {annotations.map(([name, value]) => (
            <li key={name}>
              <span class={`badge badge-${ALARMING[name] === value ? 'bad' : 'muted'}`}>
                <Visible text={`${name}: ${JSON.stringify(value)}`} />
              </span>
            </li>
          ))}
        </ul>
      )}
      <h3>Arguments</h3>
      <JsonView value={a.arguments} label="Arguments of the call (secrets redacted)" />
      <h3>Recent calls of {a.caller.principalName}</h3>
      {a.callerRecentExecutions.length === 0 ? (
        <p class="muted">No other calls recorded.</p>
      ) : (
        <div class="table-wrap" tabIndex={0} role="region" aria-label={`Recent calls of ${a.caller.principalName}`}>
          <table>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Tool</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">Duration</th>
              </tr>
            </thead>
            <tbody>
              {a.callerRecentExecutions.map((call) => (
                <tr key={call.id}>
                  <td>
                    <Link to={`/executions/${encodeURIComponent(call.id)}`}>
                      <When at={call.startedAt} />
                    </Link>
                  </td>
                  <td>
                    <Visible text={call.qualifiedName} />
                  </td>
                  <td>
                    <Badge value={call.status} />
                  </td>
                  <td class="num">{ms(call.durationMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {a.status === 'pending' ? (
        <Decision approval={a} onDecided={props.onDecided} />
      ) : (
        <p>
          {a.status} <When at={a.decidedAt} /> {a.decidedBy ? `by ${a.decidedBy.name}` : ''}
          {a.comment ? (
            <>
              : <Visible text={a.comment} />
            </>
          ) : null}
        </p>
      )}
    </div>
  );
}

function Decision(props: { approval: ApprovalDetail; onDecided: (message: string) => void }) {
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `approval-${props.approval.id}-comment`;
  const decide = async (decision: 'approve' | 'deny') => {
    setBusy(true);
    setError(null);
    try {
      await send('POST', `/api/v1/approvals/${encodeURIComponent(props.approval.id)}/${decision}`, { comment: comment || undefined });
      props.onDecided(`${decision === 'approve' ? 'Approved' : 'Denied'} the call of ${props.approval.tool.qualifiedName} by ${props.approval.caller.principalName}.`);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="decision">
      <div class="field">
        <label for={id}>Comment</label>
        <textarea id={id} rows={2} maxLength={2000} value={comment} onInput={(event) => setComment(event.currentTarget.value)} />
      </div>
      {error && (
        <p class="problem" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="button" disabled={busy} onClick={() => decide('approve')}>
          Approve
        </button>
        <button type="button" class="danger" disabled={busy} onClick={() => decide('deny')}>
          Deny
        </button>
      </div>
    </div>
  );
}
