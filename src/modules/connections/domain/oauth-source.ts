import { createHash } from 'node:crypto';
import type { OAuthSettings, UpstreamAuth } from '../../sources/domain/upstream-auth.js';

/** A source whose upstream wants each principal's own credential, as the connections module reads it. */
export interface PerUserSource {
  id: string;
  name: string;
  url: string | null;
  auth: UpstreamAuth;
  /** The principal whose credential discovers the source's tools, when one is recorded. */
  discoveryPrincipalId: string | null;
  /** The source has never discovered its tools (waiting for its discovery principal's credential). */
  neverDiscovered: boolean;
}

export interface OAuthSource extends PerUserSource {
  url: string;
  auth: { mode: 'oauth'; oauth: OAuthSettings };
}

export function isOAuthSource(source: PerUserSource): source is OAuthSource {
  return source.auth.mode === 'oauth' && source.url !== null;
}

/** Port: the per-user sources, live ones only (the sources module owns them). */
export abstract class PerUserSources {
  abstract byName(name: string): Promise<PerUserSource | undefined>;
  abstract byId(id: string): Promise<PerUserSource | undefined>;
  /** Every live source whose mode is not shared, with the qualified names of its live tools (for scope decisions). */
  abstract all(): Promise<(PerUserSource & { toolNames: string[] })[]>;
}

/** Port: refreshes a source's inventory (with its discovery principal's credential, the sources module decides how). */
export abstract class DiscoveryRefresh {
  abstract refresh(sourceId: string, actor: string): Promise<void>;
}

/** What Toolplane's client at a source's authorization server was made for: another URL or other settings ask for a new one. */
export function clientSettingsHash(source: OAuthSource): string {
  const { clientId, clientSecret, clientMetadataUrl, authorizationServer } = source.auth.oauth;
  return createHash('sha256').update(JSON.stringify([source.url, clientId ?? null, clientSecret ?? null, clientMetadataUrl ?? null, authorizationServer ?? null])).digest('hex');
}
