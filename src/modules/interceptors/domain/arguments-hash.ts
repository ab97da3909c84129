import { canonicalJson, sha256Hex } from '../../../shared/canonical-json.js';

/** The hash a held call's arguments are bound to: SHA-256 (hex) of their canonical JSON. Any change is another call. */
export function argumentsHashOf(args: Record<string, unknown>): string {
  return sha256Hex(canonicalJson(args));
}
