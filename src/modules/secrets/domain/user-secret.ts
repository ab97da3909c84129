import type { SecretMetadata } from './secret.js';

/** At most this many values per principal: a caller's own store, not a vault. */
export const MAX_USER_SECRETS_PER_PRINCIPAL = 100;
/** A user secret's value: at most 16 KiB (a token, a key, a password). */
export const MAX_USER_SECRET_BYTES = 16 * 1024;

/** Which of the names asked about one principal holds. */
export interface UserSecretHolder {
  principalId: string;
  names: string[];
}

/**
 * Port: each principal's own secrets, the values of `${user-secret:NAME}` references. Values go in
 * sealed (bound to the principal and the name) and come out only to render that principal's call.
 */
export abstract class UserSecrets {
  abstract put(principalId: string, name: string, value: string, now: Date): Promise<SecretMetadata & { created: boolean }>;
  abstract delete(principalId: string, name: string): Promise<boolean>;
  /** The values of those of `names` the principal holds. */
  abstract reveal(principalId: string, names: readonly string[]): Promise<Map<string, string>>;
  abstract list(principalId: string): Promise<SecretMetadata[]>;
  abstract count(principalId: string): Promise<number>;
  /** Every principal holding one of `names`, with the ones it holds (no values). */
  abstract holders(names: readonly string[]): Promise<UserSecretHolder[]>;
  /** Deletes every value of a principal (its key revoked); answers how many there were. */
  abstract dropPrincipal(principalId: string): Promise<number>;
}

/** A principal stored one of its own secrets: a source waiting for that principal's credential may discover now. */
export class UserSecretStored {
  constructor(
    readonly principalId: string,
    readonly name: string,
  ) {}
}
