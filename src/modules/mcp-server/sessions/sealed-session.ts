import { SecretCipher } from '../../../shared/crypto/secret-cipher.js';
import { isRecord } from '../../../shared/is-record.js';

/** Session ids Toolplane issues to 2025-era clients start with this; the rest is sealed. */
export const SEALED_SESSION_PREFIX = 'tps1.';
const ASSOCIATED_DATA = 'toolplane:mcp-session:v1';
/** Declared capabilities are carried when their JSON fits in this much; otherwise left out. */
const MAX_CAPABILITIES_JSON = 1024;
const MAX_TEXT = 200;

/** What a 2025-era client said in `initialize`, and whose session it is. */
export interface SessionClaims {
  principalId: string;
  surface: string;
  clientInfo?: { name: string; version?: string };
  protocolVersion?: string;
  capabilities?: Record<string, unknown>;
  issuedAt: number;
}

/**
 * 2025-era session ids any Toolplane process can read: the claims of the client's `initialize`
 * sealed (AES-256-GCM) under the encryption key every process shares, so a request that reaches
 * another replica still names its client in the record. A session id is bound to the principal it
 * was issued to and names the endpoint; a tampered or foreign one is not a session.
 */
export class SealedSessions {
  constructor(private readonly cipher: SecretCipher) {}

  issue(claims: SessionClaims): string {
    const sealed = this.cipher.sealJson(compact(claims), ASSOCIATED_DATA);
    const bytes = (base64: string) => Buffer.from(base64, 'base64').toString('base64url');
    return SEALED_SESSION_PREFIX + [Buffer.from(sealed.keyId, 'utf8').toString('base64url'), bytes(sealed.iv), bytes(sealed.tag), bytes(sealed.data)].join('.');
  }

  /** The claims of a sealed id issued to this principal; undefined for anything else (tampered, another key or caller). */
  read(id: string, principalId: string): SessionClaims | undefined {
    if (!id.startsWith(SEALED_SESSION_PREFIX) || id.length > 8192) return undefined;
    const parts = id.slice(SEALED_SESSION_PREFIX.length).split('.');
    if (parts.length !== 4) return undefined;
    const [keyIdText, ...rest] = parts as [string, string, string, string];
    const [iv, tag, data] = rest.map((part) => Buffer.from(part, 'base64url').toString('base64'));
    const keyId = Buffer.from(keyIdText, 'base64url').toString('utf8');
    let claims: unknown;
    try {
      claims = this.cipher.openJson({ keyId, iv: iv!, tag: tag!, data: data! }, ASSOCIATED_DATA);
    } catch {
      return undefined;
    }
    if (!isRecord(claims) || claims.principalId !== principalId || typeof claims.surface !== 'string') return undefined;
    return claims as unknown as SessionClaims;
  }
}

/** The claims of an `initialize` request body, for the given owner. */
export function claimsOfInitialize(body: unknown, owner: { principalId: string; surface: string }): SessionClaims {
  const params = isRecord(body) && isRecord(body.params) ? body.params : {};
  const client = isRecord(params.clientInfo) ? params.clientInfo : {};
  return {
    ...owner,
    ...(typeof client.name === 'string' ? { clientInfo: { name: client.name, ...(typeof client.version === 'string' ? { version: client.version } : {}) } } : {}),
    ...(typeof params.protocolVersion === 'string' ? { protocolVersion: params.protocolVersion } : {}),
    ...(isRecord(params.capabilities) ? { capabilities: params.capabilities } : {}),
    issuedAt: Date.now(),
  };
}

/** Whether a JSON-RPC body is an `initialize` request. */
export function isInitialize(body: unknown): boolean {
  return isRecord(body) && body.method === 'initialize' && body.id !== undefined;
}

function compact(claims: SessionClaims): SessionClaims {
  const clip = (text: string) => text.slice(0, MAX_TEXT);
  const capabilities = claims.capabilities && JSON.stringify(claims.capabilities).length <= MAX_CAPABILITIES_JSON ? claims.capabilities : undefined;
  return {
    principalId: claims.principalId,
    surface: clip(claims.surface),
    ...(claims.clientInfo ? { clientInfo: { name: clip(claims.clientInfo.name), ...(claims.clientInfo.version !== undefined ? { version: clip(claims.clientInfo.version) } : {}) } } : {}),
    ...(claims.protocolVersion !== undefined ? { protocolVersion: clip(claims.protocolVersion) } : {}),
    ...(capabilities ? { capabilities } : {}),
    issuedAt: claims.issuedAt,
  };
}
