import { callerTokenOf } from '../../../shared/principal/caller-token.js';
import type { Principal } from '../../../shared/principal/principal.js';
import type { ConnectionNote } from '../domain/connection-notes.js';

/** What a source wants of each caller, as read for a listing. */
export interface PerUserSource {
  id: string;
  name: string;
  mode: 'user-secret' | 'oauth' | 'token-exchange';
  /** oauth: the principal holds a connection. */
  connected: boolean;
  /** user-secret: the names the source needs that the principal holds no value of (null: some, unnamed). */
  missingSecrets: string[] | null;
}

/**
 * The note of a source a principal cannot call yet, or undefined when it can: an oauth source
 * without its connection (the console's connections page connects it), a user-secret source
 * without one of its values (set with PUT /api/v1/me/secrets/NAME), a token-exchange source for a
 * caller that did not sign in with OIDC.
 */
export function connectionNoteOf(source: PerUserSource, principal: Principal, publicUrl: string): ConnectionNote | undefined {
  const note = { required: true, source: source.name } as const;
  switch (source.mode) {
    case 'oauth':
      return source.connected ? undefined : { ...note, connectUrl: `${publicUrl.replace(/\/+$/, '')}/console/connections` };
    case 'user-secret':
      if (source.missingSecrets === null) return { ...note, hint: 'set your own values of its secrets (PUT /api/v1/me/secrets/NAME)' };
      if (source.missingSecrets.length === 0) return undefined;
      return { ...note, hint: `set ${source.missingSecrets.map((name) => `your own ${name} (PUT /api/v1/me/secrets/${encodeURIComponent(name)})`).join(' and ')}` };
    case 'token-exchange':
      return callerTokenOf(principal) !== undefined ? undefined : { ...note, hint: 'sign in with OIDC (it is called with your own identity, which an API key does not carry)' };
  }
}
