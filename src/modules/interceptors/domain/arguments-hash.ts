import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../shared/canonical-json.js';

/** sha256 hex of the canonical JSON of a call's arguments: what an approval binds its decision to. */
export function argumentsHash(args: unknown): string {
  return createHash('sha256').update(canonicalJson(args)).digest('hex');
}
