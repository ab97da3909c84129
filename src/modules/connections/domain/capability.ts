import { createHash, randomBytes } from 'node:crypto';

/** A flow's state or ticket lives this long, and is taken once. */
export const FLOW_TTL_MS = 10 * 60_000;

/** A fresh capability (state or ticket): 256 random bits, base64url. */
export function newCapability(): string {
  return randomBytes(32).toString('base64url');
}

/** How a capability is stored and looked up: its SHA-256, never itself. */
export function capabilityHash(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A capability as sent back to Toolplane: what newCapability makes, else nothing worth a database read. */
export function isCapabilityShaped(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** A PKCE pair (RFC 7636, S256): a 256-bit verifier and its challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
