import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, describeError } from '../api.js';
import { navigate, BASE } from '../router.js';

/** A link inside the console (client-side navigation, a real href for new tabs). */
export function Link(props: { to: string; children: ComponentChildren; class?: string }) {
  return (
    <a
      href={BASE + props.to}
      class={props.class}
      onClick={(event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(props.to);
      }}
    >
      {props.children}
    </a>
  );
}

const TONES: Record<string, string> = {
  healthy: 'ok', succeeded: 'ok', active: 'ok', closed: 'ok', enabled: 'ok', intact: 'ok', allow: 'ok', modify: 'warn', deny: 'bad', error: 'bad', connected: 'ok',
  degraded: 'warn', half_open: 'warn', tool_error: 'warn', input_required: 'warn', rejected: 'warn', cancelled: 'warn', deprecated: 'warn', unknown: 'muted', disabled: 'muted', revoked: 'muted', expired: 'muted',
  awaiting_connection: 'warn', not_connected: 'warn', refresh_failed: 'bad',
  unhealthy: 'bad', open: 'bad', upstream_error: 'bad', timeout: 'bad', circuit_open: 'bad', invalid_arguments: 'bad', interrupted: 'bad', broken: 'bad', unusable: 'bad',
};

export function Badge(props: { value: string; label?: string }) {
  return <span class={`badge badge-${TONES[props.value] ?? 'muted'}`}>{props.label ?? props.value.replace(/_/g, ' ')}</span>;
}

export function When(props: { at: string | null | undefined }) {
  if (!props.at) return <span class="muted">never</span>;
  const date = new Date(props.at);
  return <time dateTime={props.at} title={date.toISOString()}>{ago(date)}</time>;
}

/** `1 source`, `2 sources`. */
export function countOf(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}

export function ago(date: Date): string {
  const seconds = Math.round((Date.now() - date.getTime()) / 1000);
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return date.toLocaleString();
}

export function ms(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return value < 10 ? `${value.toFixed(1)} ms` : value < 10_000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
}

/** What went wrong, said plainly: unreachable, forbidden, expired, or the API's own message. */
export function ErrorState(props: { error: unknown; retry?: () => void }) {
  const error = props.error;
  let title = 'Something went wrong';
  if (error instanceof ApiError) {
    if (error.status === 0) title = 'Toolplane is unreachable';
    else if (error.status === 403) title = 'Not allowed';
    else if (error.status === 401) title = 'Signed out';
    else if (error.status === 404) title = 'Not found';
  }
  return (
    <div class="state state-error" role="alert">
      <strong>{title}</strong>
      <p>{describeError(error)}</p>
      {props.retry && (
        <button type="button" onClick={props.retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty(props: { children: ComponentChildren }) {
  return <div class="state state-empty">{props.children}</div>;
}

export function Loading(props: { label?: string }) {
  return (
    <div class="state" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" /> {props.label ?? 'Loading…'}
    </div>
  );
}

export function CopyButton(props: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      class="secondary small"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(props.text);
        } catch {
          // Without clipboard access (an insecure origin), select-and-copy still works on the text shown.
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
    >
      {copied ? 'Copied' : (props.label ?? 'Copy')}
    </button>
  );
}

/** A modal that names what will happen; resolves with the operator's answer. */
export function ConfirmDialog(props: { title: string; children: ComponentChildren; confirmLabel: string; onClose: (confirmed: boolean) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    <dialog ref={dialog} class="dialog" aria-labelledby="confirm-title" onCancel={() => props.onClose(false)}>
      <h2 id="confirm-title">{props.title}</h2>
      <div>{props.children}</div>
      <div class="actions">
        <button type="button" class="secondary" onClick={() => props.onClose(false)}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={() => props.onClose(true)}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

export function JsonView(props: { value: unknown; label?: string }) {
  return (
    <pre class="json" tabIndex={0} aria-label={props.label ?? 'JSON'}>
      {JSON.stringify(props.value, null, 2)}
    </pre>
  );
}
