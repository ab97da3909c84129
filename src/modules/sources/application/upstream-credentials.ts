import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Principal } from '../../../shared/principal/principal.js';
import type { SourceProps } from '../domain/source.js';
import { SourceRepository } from '../domain/source.repository.js';
import { isPerPrincipal, type DiscoveryPrincipal, type UpstreamAuth } from '../domain/upstream-auth.js';
import { ModeCredentials, type CredentialOutcome, type CredentialRequest } from '../domain/upstream-credentials.js';
import type { UpstreamTarget } from '../domain/upstream.js';
import { UpstreamTargetResolver } from './upstream-target-resolver.js';

/**
 * Where the credential implementations of the modes come from: a module may provide one under this
 * token (a single one or an array); besides, every provider of the application that is a
 * ModeCredentials is found at start, so a module need only list its class among its providers.
 */
export const MODE_CREDENTIALS = Symbol('MODE_CREDENTIALS');

/**
 * The dispatcher of per-user credentials: picks the ModeCredentials of a source's mode. A shared
 * source (or one without upstreamAuth) is ready as it is.
 */
@Injectable()
export class UpstreamCredentials implements OnModuleInit {
  private readonly modes = new Map<string, ModeCredentials>();

  constructor(
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(UpstreamTargetResolver) private readonly targets: UpstreamTargetResolver,
    @Optional() @Inject(MODE_CREDENTIALS) given?: ModeCredentials | readonly ModeCredentials[],
    @Optional() @Inject(DiscoveryService) private readonly discovery?: DiscoveryService,
  ) {
    for (const credentials of given === undefined ? [] : Array.isArray(given) ? given : [given as ModeCredentials]) this.register(credentials);
  }

  onModuleInit(): void {
    for (const wrapper of this.discovery?.getProviders() ?? []) {
      const instance: unknown = wrapper.instance;
      if (instance instanceof ModeCredentials) this.register(instance);
    }
  }

  /** Adds (or replaces) the implementation of a mode. */
  register(credentials: ModeCredentials): void {
    this.modes.set(credentials.mode, credentials);
  }

  /** The target a call of `principal` goes with: the source's own when shared, else with the principal's credential (or why not). */
  async forCall(request: Omit<CredentialRequest, 'auth'> & { auth?: UpstreamAuth }): Promise<CredentialOutcome> {
    const auth = request.auth ?? request.target.auth;
    if (!isPerPrincipal(auth)) return { kind: 'ready', target: request.target };
    return this.of(auth, request.target).forCall({ ...request, auth });
  }

  /** The upstream refused the principal's credential (HTTP 401): a renewed one, or why there is none. */
  async afterUnauthorized(request: Omit<CredentialRequest, 'auth'> & { auth?: UpstreamAuth }): Promise<CredentialOutcome> {
    const auth = request.auth ?? request.target.auth;
    if (!isPerPrincipal(auth)) return { kind: 'required', code: 'UPSTREAM_CREDENTIAL_REQUIRED', message: `The upstream of source "${request.target.sourceName}" refused Toolplane's credential.` };
    return this.of(auth, request.target).afterUnauthorized({ ...request, auth });
  }

  /**
   * How a source's discovery reaches it: its own target when shared; for a per-user source, with
   * its discovery principal's credential (or why there is none yet). Undefined: no such live source.
   */
  async forDiscovery(sourceId: string): Promise<CredentialOutcome | undefined> {
    const source = await this.sources.findLive(sourceId);
    if (!source) return undefined;
    const props = source.snapshot();
    return this.forDiscoveryOf(props, await this.targets.resolve(props));
  }

  /**
   * forDiscovery for a source and its target already at hand: its discovery token when it has one
   * (a service account's, `${secret:…}`), else its discovery principal's credential.
   */
  async forDiscoveryOf(source: Pick<SourceProps, 'upstreamAuth' | 'discoveryPrincipal'>, target: UpstreamTarget, callerToken?: string): Promise<CredentialOutcome> {
    if (!isPerPrincipal(source.upstreamAuth)) return { kind: 'ready', target };
    const discoveryToken = discoveryTokenOf(source.upstreamAuth);
    if (discoveryToken !== undefined) {
      const token = await this.targets.secretValue(discoveryToken, 'upstreamAuth.discoveryToken');
      return {
        kind: 'ready',
        target: { ...target, headers: { ...target.headers, Authorization: `Bearer ${token}` }, secrets: Object.freeze([...target.secrets, { name: 'discovery token', value: token }]), poolKey: `${target.sourceId}#discovery` },
      };
    }
    return this.forPrincipalDiscovery(source, target, callerToken);
  }

  private forPrincipalDiscovery(source: Pick<SourceProps, 'upstreamAuth' | 'discoveryPrincipal'>, target: UpstreamTarget, callerToken?: string): Promise<CredentialOutcome> {
    if (!isPerPrincipal(source.upstreamAuth)) return Promise.resolve({ kind: 'ready', target });
    if (!source.discoveryPrincipal) {
      return Promise.resolve({ kind: 'required', code: 'UPSTREAM_CREDENTIAL_REQUIRED', message: `Source "${target.sourceName}" has no principal to discover its tools with.` });
    }
    return this.forCall({ target, auth: source.upstreamAuth, principal: principalOf(source.discoveryPrincipal), callerToken });
  }

  private of(auth: Exclude<UpstreamAuth, { mode: 'shared' }>, target: UpstreamTarget): ModeCredentials {
    const credentials = this.modes.get(auth.mode);
    if (credentials) return credentials;
    return new MissingMode(auth.mode, target.sourceName);
  }
}

/** The discovery principal as a principal: only its identity counts for a credential. */
function principalOf(discovery: DiscoveryPrincipal): Principal {
  return { id: discovery.id, name: discovery.name, kind: discovery.kind ?? 'api-key', roles: [] };
}

/** A mode this Toolplane has no implementation of: every call says so. */
class MissingMode extends ModeCredentials {
  constructor(
    readonly mode: Exclude<UpstreamAuth['mode'], 'shared'>,
    private readonly sourceName: string,
  ) {
    super();
  }

  forCall(): Promise<CredentialOutcome> {
    return Promise.resolve({ kind: 'required', code: 'UPSTREAM_CREDENTIAL_REQUIRED', message: `Source "${this.sourceName}" authenticates with mode "${this.mode}", which this Toolplane cannot provide.` });
  }

  afterUnauthorized(): Promise<CredentialOutcome> {
    return this.forCall();
  }
}

/** The discovery token reference of an oauth or token-exchange source, if it has one. */
function discoveryTokenOf(auth: UpstreamAuth): string | undefined {
  if (auth.mode === 'oauth') return auth.oauth.discoveryToken;
  if (auth.mode === 'token-exchange') return auth.tokenExchange.discoveryToken;
  return undefined;
}
