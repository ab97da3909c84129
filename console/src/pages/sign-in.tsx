import { useState } from 'preact/hooks';
import { ApiError, describeError, request } from '../api.js';
import { startOidcSignIn, type OidcSettings } from '../oidc.js';
import type { CurrentPrincipal } from '../types.js';

/** Sign-in with an API key (checked against the API before it is kept for this tab), or with the configured issuer. */
export function SignIn(props: { notice?: string; oidc: OidcSettings | null; onSignedIn: (key: string, me: CurrentPrincipal) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const me = (await request<CurrentPrincipal>('/api/v1/access/me', { key: key.trim() })).body;
      props.onSignedIn(key.trim(), me);
    } catch (failure) {
      const expired = failure instanceof ApiError && failure.code === 'API_KEY_EXPIRED';
      setError(expired ? 'This key has expired. Ask an admin for a new one.' : describeError(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in" id="main">
      <form class="card" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Toolplane console</h1>
        {props.notice && (
          <p class="notice" role="status">
            {props.notice}
          </p>
        )}
        <label for="api-key">API key</label>
        <input id="api-key" type="password" autoComplete="off" required value={key} onInput={(event) => setKey(event.currentTarget.value)} aria-describedby="api-key-help" aria-invalid={error ? 'true' : undefined} />
        <p id="api-key-help" class="help">
          Kept in this tab only (session storage) and forgotten on sign-out.
        </p>
        {error && (
          <p class="problem" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy || key.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {props.oidc && (
          <>
            <p class="or">or</p>
            <button
              type="button"
              class="secondary"
              onClick={() => startOidcSignIn(props.oidc!).catch((failure: unknown) => setError(describeError(failure)))}
            >
              Sign in with {new URL(props.oidc.issuer).host}
            </button>
          </>
        )}
      </form>
    </main>
  );
}
