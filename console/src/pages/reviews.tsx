import { useState } from 'preact/hooks';
import { describeError, query, send } from '../api.js';
import { Badge, Empty, ErrorState, Link, Loading, When } from '../components/common.js';
import { FindingsTable } from '../components/findings-table.js';
import { DiffSide, MarkedText, Visible } from '../components/hostile-text.js';
import { useResource } from '../hooks.js';
import { setQuery, useLocation } from '../router.js';
import { useCan } from '../session-context.js';
import type { Review, ReviewPage, Schemas } from '../types.js';

type Finding = Schemas['DefinitionFindingDto'];

const STATES = ['pending', 'approved', 'rejected', 'superseded'] as const;
/** The named changes to look at first. */
const ALARMING = new Set(['more_destructive', 'widened_schema', 'new_required_parameter']);

/** The review inbox: reviews by state and source, each opened to its side-by-side diff and findings, decided with a comment. */
export function ReviewsPage() {
  const { search } = useLocation();
  const [state, setState] = useState(search.get('state') ?? 'pending');
  const [source, setSource] = useState(search.get('source') ?? '');
  const [open, setOpen] = useState<string | null>(search.get('id'));
  const [message, setMessage] = useState<string | null>(null);
  const reviews = useResource<ReviewPage>(`/api/v1/reviews${query({ state, source, limit: 100 })}`, 5000);
  const filter = (changes: { state?: string; source?: string }) => {
    const next = { state, source, ...changes };
    setState(next.state);
    setSource(next.source);
    setQuery(next);
  };
  return (
    <section aria-labelledby="reviews-title">
      <div class="page-head">
        <h1 id="reviews-title">Reviews</h1>
      </div>
      <form class="filters" role="search" aria-label="Filter reviews" onSubmit={(event) => event.preventDefault()}>
        <div class="field">
          <label for="reviews-state">State</label>
          <select id="reviews-state" value={state} onChange={(event) => filter({ state: event.currentTarget.value })}>
            {STATES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="reviews-source">Source</label>
          <input id="reviews-source" value={source} placeholder="name or id" onChange={(event) => filter({ source: event.currentTarget.value.trim() })} />
        </div>
      </form>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      {reviews.error !== undefined && <ErrorState error={reviews.error} retry={reviews.reload} />}
      {!reviews.data && reviews.error === undefined && <Loading />}
      {reviews.data && reviews.data.items.length === 0 && <Empty>No {state} reviews.</Empty>}
      {reviews.data && reviews.data.items.length > 0 && (
        <ul class="plain reviews">
          {reviews.data.items.map((review) => (
            <li key={review.id}>
              <ReviewItem
                review={review}
                open={open === review.id}
                onToggle={() => setOpen(open === review.id ? null : review.id)}
                onDecided={(text) => {
                  setMessage(text);
                  setOpen(null);
                  reviews.reload();
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ReviewItem(props: { review: Review; open: boolean; onToggle: () => void; onDecided: (message: string) => void }) {
  const { review } = props;
  const headingId = `review-${review.id}-title`;
  return (
    <article class="card review" aria-labelledby={headingId}>
      <div class="review-head">
        <h2 id={headingId}>
          <Visible text={review.qualifiedName} />
        </h2>
        <span class="muted">
          source <Link to={`/sources/${encodeURIComponent(review.source.name)}`}>{review.source.name}</Link>, <When at={review.createdAt} />
        </span>
        <Badge value={review.state === 'pending' ? 'degraded' : review.state === 'approved' ? 'active' : 'disabled'} label={review.state} />
        <button type="button" class="secondary small" aria-expanded={props.open} aria-controls={`review-${review.id}-body`} onClick={props.onToggle}>
          {props.open ? 'Close' : 'Open'} <span class="visually-hidden">the review of {review.qualifiedName}</span>
        </button>
      </div>
      <ChangeBadges changes={review.changes} />
      {review.findings.length > 0 && <p class="muted">{review.findings.length === 1 ? '1 finding' : `${review.findings.length} findings`}</p>}
      {props.open && (
        <div id={`review-${review.id}-body`}>
          <ReviewBody review={review} />
          <Decision review={review} onDecided={props.onDecided} />
        </div>
      )}
    </article>
  );
}

function ChangeBadges(props: { changes: readonly string[] }) {
  return (
    <ul class="plain badges" aria-label="Changes">
      {props.changes.map((change) => (
        <li key={change}>
          <span class={`badge badge-${ALARMING.has(change) ? 'bad' : change === 'new_tool' || change.startsWith('renamed_from:') ? 'warn' : 'muted'}`}>
            <Visible text={change} />
          </span>
        </li>
      ))}
    </ul>
  );
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value));
const findingsAt = (findings: readonly Finding[], path: string) => findings.filter((finding) => finding.path === path || finding.path.startsWith(`${path}.`) || finding.path.startsWith(`${path}[`));

function ReviewBody(props: { review: Review }) {
  const { review } = props;
  const diff = review.diff;
  const before = review.previousDefinition;
  const after = review.definition;
  const descriptionFindings = findingsAt(review.findings, 'description');
  return (
    <div class="review-body">
      <div class="diff-sides" role="group" aria-label="The definition, side by side">
        <section class="diff-side" aria-labelledby={`review-${review.id}-before`}>
          <h3 id={`review-${review.id}-before`}>Approved before</h3>
          {before === null ? (
            <p class="muted">No approved definition: a new tool.</p>
          ) : (
            <>
              <h4>Name</h4>
              <p>
                <Visible text={textOf(before.name)} />
              </p>
              {textOf(before.title) && (
                <>
                  <h4>Title</h4>
                  <p>
                    <Visible text={textOf(before.title)} />
                  </p>
                </>
              )}
              <h4>Description</h4>
              <p class="diff-text" data-side="before">
                {diff?.description ? <DiffSide hunks={diff.description.hunks} side="before" /> : <Visible text={textOf(before.description)} />}
              </p>
            </>
          )}
        </section>
        <section class="diff-side" aria-labelledby={`review-${review.id}-after`}>
          <h3 id={`review-${review.id}-after`}>Under review</h3>
          <h4>Name</h4>
          <p>
            <MarkedText text={textOf(after.name)} findings={findingsAt(review.findings, 'name')} />
          </p>
          {textOf(after.title) && (
            <>
              <h4>Title</h4>
              <p>
                <MarkedText text={textOf(after.title)} findings={findingsAt(review.findings, 'title')} />
              </p>
            </>
          )}
          <h4>Description</h4>
          <p class="diff-text" data-side="after">
            {diff?.description ? <DiffSide hunks={diff.description.hunks} side="after" findings={descriptionFindings} /> : <MarkedText text={textOf(after.description)} findings={descriptionFindings} />}
          </p>
        </section>
      </div>
      {diff && (diff.annotations.length > 0 || diff.inputSchema || diff.outputSchema || diff.other || diff.name || diff.title) && (
        <section aria-labelledby={`review-${review.id}-fields`}>
          <h3 id={`review-${review.id}-fields`}>Other changes</h3>
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Field changes">
            <table>
              <thead>
                <tr>
                  <th scope="col">Where</th>
                  <th scope="col">Change</th>
                  <th scope="col">Before</th>
                  <th scope="col">After</th>
                </tr>
              </thead>
              <tbody>
                {diff.name && <ChangeRow where="name" op="changed" before={diff.name.before} after={diff.name.after} />}
                {diff.title && <ChangeRow where="title" op="changed" before={diff.title.before} after={diff.title.after} />}
                {diff.annotations.map((change) => (
                  <ChangeRow key={change.name} where={`annotations.${change.name}`} op="changed" before={change.before} after={change.after} />
                ))}
                {(['inputSchema', 'outputSchema', 'other'] as const).flatMap((field) =>
                  (diff[field]?.changes ?? []).map((change, index) => <ChangeRow key={`${field}-${index}`} where={`${field} ${change.path}`} op={change.op} before={change.before} after={change.after} />),
                )}
              </tbody>
            </table>
          </div>
          {(['inputSchema', 'outputSchema', 'other'] as const).some((field) => diff[field]?.truncated) && <p class="muted">More changes than listed.</p>}
        </section>
      )}
      <section aria-labelledby={`review-${review.id}-findings`}>
        <h3 id={`review-${review.id}-findings`}>Findings</h3>
        <FindingsTable findings={review.findings} label={`Findings of ${review.qualifiedName}`} />
      </section>
      {review.state !== 'pending' && (
        <p>
          {review.state} <When at={review.decidedAt} /> {review.decidedBy ? `by ${review.decidedBy}` : ''}
          {review.comment ? (
            <>
              : <Visible text={review.comment} />
            </>
          ) : null}
        </p>
      )}
    </div>
  );
}

function ChangeRow(props: { where: string; op: string; before: unknown; after: unknown }) {
  return (
    <tr>
      <td>
        <code>
          <Visible text={props.where} />
        </code>
      </td>
      <td>{props.op}</td>
      <td>{props.before === undefined || props.before === null ? <span class="muted">—</span> : <code><Visible text={JSON.stringify(props.before)} /></code>}</td>
      <td>{props.after === undefined || props.after === null ? <span class="muted">—</span> : <code><Visible text={JSON.stringify(props.after)} /></code>}</td>
    </tr>
  );
}

function Decision(props: { review: Review; onDecided: (message: string) => void }) {
  const can = useCan();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (props.review.state !== 'pending' || !can('reviews:decide')) return null;
  const id = `review-${props.review.id}-comment`;
  const decide = async (decision: 'approve' | 'reject') => {
    setBusy(true);
    setError(null);
    try {
      await send('POST', `/api/v1/reviews/${encodeURIComponent(props.review.id)}/${decision}`, { comment: comment || undefined });
      props.onDecided(`${decision === 'approve' ? 'Approved' : 'Rejected'} the definition of ${props.review.qualifiedName}.`);
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
        <button type="button" class="danger" disabled={busy} onClick={() => decide('reject')}>
          Reject
        </button>
      </div>
    </div>
  );
}
