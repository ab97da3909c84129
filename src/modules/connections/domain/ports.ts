import type { UpstreamConnection } from './upstream-connection.js';

/** Port: each principal's connections, their tokens sealed per (principal, source). */
export abstract class ConnectionRepository {
  abstract find(principalId: string, sourceId: string): Promise<UpstreamConnection | undefined>;
  /** The row locked until the current transaction ends (a refresh runs once across processes). */
  abstract findForUpdate(principalId: string, sourceId: string): Promise<UpstreamConnection | undefined>;
  abstract save(connection: UpstreamConnection): Promise<void>;
  abstract recordFailure(principalId: string, sourceId: string, error: string): Promise<void>;
  /** Deletes and answers what was deleted (its tokens, to revoke them). */
  abstract delete(principalId: string, sourceId: string): Promise<UpstreamConnection | undefined>;
  abstract deleteOfPrincipal(principalId: string): Promise<UpstreamConnection[]>;
  /** Deletes every principal's connection to the source; answers them. */
  abstract deleteOfSource(sourceId: string): Promise<UpstreamConnection[]>;
  abstract ofPrincipal(principalId: string): Promise<UpstreamConnection[]>;
  abstract ofSource(sourceId: string): Promise<UpstreamConnection[]>;
}

/** An authorization on its way: a `state` sent to the authorization server, or a ticket not opened yet. */
export interface PendingFlow {
  /** SHA-256 (hex) of the state or ticket; the value itself is never stored. */
  hash: string;
  kind: 'state' | 'ticket';
  principalId: string;
  principalName: string;
  sourceId: string;
  /** PKCE verifier (state flows only). */
  codeVerifier?: string;
  returnTo: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** Port: pending flows; each is taken once. */
export abstract class PendingFlows {
  abstract insert(flow: PendingFlow): Promise<void>;
  /** Deletes the flow of this hash and kind and answers it when it had not expired at `now`; undefined otherwise. */
  abstract take(hash: string, kind: PendingFlow['kind'], now: Date): Promise<PendingFlow | undefined>;
  abstract deleteExpired(now: Date): Promise<void>;
  /** Deletes every flow and ticket of a principal (its credential ended: none may complete). */
  abstract deleteOfPrincipal(principalId: string): Promise<void>;
  /** Keeps the newest `keep` unopened tickets of a principal for a source, deleting older ones. */
  abstract trimTickets(principalId: string, sourceId: string, keep: number): Promise<void>;
}
