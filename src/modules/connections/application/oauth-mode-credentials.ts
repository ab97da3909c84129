import { Inject, Injectable } from '@nestjs/common';
import { ModeCredentials, type CredentialOutcome, type CredentialRequest } from '../../sources/domain/upstream-credentials.js';
import type { UpstreamTarget } from '../../sources/domain/upstream.js';
import type { OAuthSource } from '../domain/oauth-source.js';
import { OAuthConnections } from './oauth-connections.js';

/**
 * The `oauth` mode: a call carries its principal's own access token (`Authorization: Bearer …`,
 * pooled per principal, scrubbed as a secret); a principal without a usable connection is asked
 * to connect, with a single-use link that starts the authorization for it.
 */
@Injectable()
export class OAuthModeCredentials extends ModeCredentials {
  readonly mode = 'oauth' as const;

  constructor(@Inject(OAuthConnections) private readonly connections: OAuthConnections) {
    super();
  }

  forCall(request: CredentialRequest): Promise<CredentialOutcome> {
    return this.outcome(request, undefined);
  }

  /** The upstream refused the token the target carried (else the stored one): refresh it once, or ask for consent. */
  async afterUnauthorized(request: CredentialRequest): Promise<CredentialOutcome> {
    const source = sourceOf(request);
    const sent = bearerOf(request.target.headers);
    const rejected = sent ?? (await this.connections.credential(request.principal.id, source))?.tokens.accessToken ?? '';
    return this.outcome(request, rejected);
  }

  private async outcome(request: CredentialRequest, rejected: string | undefined): Promise<CredentialOutcome> {
    const source = sourceOf(request);
    const connection = await this.connections.credential(request.principal.id, source, rejected);
    if (!connection) {
      const connectUrl = await this.connections.ticket(request.principal, source);
      return {
        kind: 'required',
        code: 'UPSTREAM_CONSENT_REQUIRED',
        message: `${source.name} needs your authorization first: open ${connectUrl} to connect, then call again.`,
        connectUrl,
      };
    }
    const token = connection.tokens.accessToken;
    const headers = Object.fromEntries(Object.entries(request.target.headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
    const target: UpstreamTarget = {
      ...request.target,
      headers: { ...headers, Authorization: `Bearer ${token}` },
      auth: request.auth,
      principalId: request.principal.id,
      poolKey: `${request.target.sourceId}#${request.principal.id}`,
      secrets: [...request.target.secrets, { name: `oauth:${source.name}`, value: token }],
    };
    return { kind: 'ready', target };
  }
}

function sourceOf(request: CredentialRequest): OAuthSource {
  if (request.auth.mode !== 'oauth' || !request.target.url) throw new Error(`the oauth credentials were asked for a ${request.auth.mode} source`);
  return { id: request.target.sourceId, name: request.target.sourceName, url: request.target.url, auth: request.auth, discoveryPrincipalId: null, neverDiscovered: false };
}

function bearerOf(headers: Record<string, string>): string | undefined {
  const value = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  return value && /^Bearer /i.test(value) ? value.slice(7) : undefined;
}
