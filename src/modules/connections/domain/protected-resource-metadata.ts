import { isRecord } from '../../../shared/is-record.js';

/** What Toolplane uses of a protected resource's metadata (RFC 9728). */
export interface ProtectedResourceMetadata {
  resource: string;
  authorizationServers: string[];
  scopesSupported: string[];
}

const MAX_ENTRIES = 32;
const MAX_TEXT = 2048;

/**
 * Checks a protected resource metadata document from an upstream: `resource` an absolute http(s)
 * URL of the same origin as the upstream, `authorization_servers` a non-empty list of absolute
 * http(s) URLs, `scopes_supported` (optional) strings. Answers it, or every problem found.
 */
export function readProtectedResourceMetadata(body: unknown, upstream: URL): { metadata: ProtectedResourceMetadata } | { problems: string[] } {
  if (!isRecord(body)) return { problems: ['the protected resource metadata is not a JSON object'] };
  const problems: string[] = [];
  const resource = body.resource;
  if (typeof resource !== 'string' || !isHttpUrl(resource)) problems.push('resource must be an absolute http(s) URL');
  else if (new URL(resource).origin !== upstream.origin) problems.push(`resource ${JSON.stringify(resource.slice(0, 200))} is not of the upstream's origin ${upstream.origin}`);
  const servers = body.authorization_servers;
  if (!Array.isArray(servers) || servers.length === 0 || servers.length > MAX_ENTRIES) problems.push(`authorization_servers must list 1 to ${MAX_ENTRIES} issuers`);
  else if (!servers.every((server) => typeof server === 'string' && isHttpUrl(server))) problems.push('authorization_servers must hold absolute http(s) URLs');
  const scopes = body.scopes_supported;
  if (scopes !== undefined && (!Array.isArray(scopes) || scopes.length > 256 || !scopes.every(isScope))) problems.push('scopes_supported must be a list of scope tokens');
  if (problems.length > 0) return { problems };
  return { metadata: { resource: resource as string, authorizationServers: servers as string[], scopesSupported: (scopes as string[] | undefined) ?? [] } };
}

function isHttpUrl(text: string): boolean {
  if (text.length > MAX_TEXT) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** RFC 6749 §3.3 scope-token: printable ASCII without space, `"` or `\`. */
export function isScope(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 256 && /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(value);
}
