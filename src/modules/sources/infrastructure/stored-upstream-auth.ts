import { userSecretNames, type UpstreamAuth } from '../domain/upstream-auth.js';

/**
 * `sources.upstream_auth` as stored: the settings, and for a `user-secret` source the names its
 * sealed env and headers refer to (`userSecrets`), so that what a principal lacks is one query
 * (the catalog's notes) without opening every source's templates.
 */
export type StoredUpstreamAuth = UpstreamAuth & { userSecrets?: string[] };

export function storedUpstreamAuth(auth: UpstreamAuth | null, templates: { env: Record<string, string>; headers: Record<string, string> }): StoredUpstreamAuth | null {
  if (auth?.mode !== 'user-secret') return auth;
  return { ...auth, userSecrets: userSecretNames(templates) };
}

/** The settings of a stored `upstream_auth`, without what Toolplane keeps beside them. */
export function upstreamAuthOf(stored: StoredUpstreamAuth | null): UpstreamAuth | null {
  if (!stored) return null;
  const { userSecrets: _names, ...auth } = stored;
  return auth as UpstreamAuth;
}
