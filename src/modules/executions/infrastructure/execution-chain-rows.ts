import type { ExecutionRecord } from '../domain/execution.js';
import { sha256Hex } from '../../../shared/canonical-json.js';
import type { ChainedExecution } from '../domain/execution-chain.js';
import { NOTHING_PURGED, type ChainAnchor } from '../domain/execution-retention.js';
import { canonicalStoredJson } from '../../../shared/database/stored-text.js';

/** A stored execution record's columns, as the verifier (and the sealer, for records without a digest) reads them: `SELECT ${RECORD_COLUMNS} FROM executions e`. */
export const RECORD_COLUMNS = `e.id AS e_id, e.tool_id, e.qualified_name, e.source_id, e.source_name, e.definition_hash, e.caller, e.caller_principal,
  e.channel, e.arguments, e.status, e.is_error, e.result, e.error, e.attempts, e.started_at, e.duration_ms, e.group_name, e.interceptors`;

export interface RecordRow {
  e_id: string | null;
  tool_id: string | null;
  qualified_name: string;
  source_id: string | null;
  source_name: string | null;
  definition_hash: string | null;
  caller: unknown;
  caller_principal: string;
  channel: string;
  arguments: unknown;
  status: string;
  is_error: boolean;
  result: unknown;
  error: unknown;
  attempts: number;
  started_at: Date;
  duration_ms: number;
  group_name: string | null;
  interceptors: unknown;
}

/**
 * The record's digest, which its link covers: SHA-256 of its content in canonical form (keys sorted,
 * strings as stored). The recorder computes it from the record it writes, the verifier from the row
 * it reads back; both give the same text for an unchanged record (jsonb keeps values, not key order).
 */
export function recordDigest(content: Record<string, unknown>): string {
  return sha256Hex(canonicalStoredJson(content)!);
}

/** A record's jsonb columns, in the order columnTexts takes them: caller, arguments, result, error, interceptors (undefined: SQL NULL). */
export function columnValues(e: ExecutionRecord): unknown[] {
  return [e.caller, e.arguments ?? null, e.result ?? undefined, e.error ?? undefined, e.interceptors?.length ? e.interceptors : undefined];
}

export type ColumnTexts = Omit<StoredRecordTexts, 'digest'>;

/** The columns' texts from their canonicalStoredJson (computed here, or on the worker thread for a large record). */
export function columnTexts(values: readonly unknown[], texts: readonly (string | undefined)[] = values.map((value) => canonicalStoredJson(value))): ColumnTexts {
  return { caller: texts[0]!, arguments: texts[1]!, result: texts[2] ?? null, error: texts[3] ?? null, interceptors: texts[4] ?? null };
}

/** A record's jsonb columns as the JSON text written, and its digest. */
export interface StoredRecordTexts {
  caller: string;
  arguments: string;
  /** null: SQL NULL (no result, no error). */
  result: string | null;
  error: string | null;
  /** null: none ran. */
  interceptors: string | null;
  digest: string;
}

/**
 * The jsonb columns of a record about to be written and its digest, from one serialization:
 * each column is written as its canonical text (jsonb keeps values, not key order, so nothing is
 * lost) and the digest's text is assembled from those same texts. Equal to
 * `recordDigest(storedContent(e))`.
 */
export function storedRecordTexts(e: ExecutionRecord, columns: ColumnTexts = columnTexts(columnValues(e))): StoredRecordTexts {
  const content = storedContent(e);
  // The digest covers the jsonb columns as these texts (a SQL NULL as JSON null), the rest as serialized here.
  let text = '{';
  for (const { key, name } of DIGEST_MEMBERS) {
    const part = columnText(columns, key) ?? canonicalStoredJson(content[key]);
    if (part === undefined) continue;
    text += text.length === 1 ? name + part : `,${name}${part}`;
  }
  const { caller, arguments: args, result, error, interceptors } = columns;
  return { caller, arguments: args, result, error, interceptors, digest: sha256Hex(`${text}}`) };
}

/** The text of a member kept in a jsonb column, as written; undefined for the other members. */
function columnText(columns: ColumnTexts, key: string): string | undefined {
  switch (key) {
    case 'caller':
      return columns.caller;
    case 'arguments':
      return columns.arguments;
    case 'result':
      return columns.result ?? 'null';
    case 'error':
      return columns.error ?? 'null';
    case 'interceptors':
      // A member only when some ran (see storedContent).
      return columns.interceptors ?? undefined;
    default:
      return undefined;
  }
}

/** The members of storedContent, as written into the digest's text. */
const CONTENT_KEYS = [
  'id',
  'toolId',
  'qualifiedName',
  'sourceId',
  'sourceName',
  'definitionHash',
  'caller',
  'callerPrincipal',
  'channel',
  'arguments',
  'status',
  'isError',
  'result',
  'error',
  'attempts',
  'startedAt',
  'durationMs',
  // Only when the call came through a group: the digests of other records stay what they were.
  'group',
  // Only when interceptors ran on the call, likewise.
  'interceptors',
];
/** In canonical order (none is an array index, so plain sorting orders them), each with its name as JSON. */
const DIGEST_MEMBERS = [...CONTENT_KEYS].sort().map((key) => ({ key, name: `${JSON.stringify(key)}:` }));

/** The content of a record about to be written, as recordContent reads it back. */
export function storedContent(e: ExecutionRecord): Record<string, unknown> {
  return {
    id: e.id,
    toolId: e.toolId,
    qualifiedName: e.qualifiedName,
    sourceId: e.sourceId,
    sourceName: e.sourceName ?? null,
    definitionHash: e.definitionHash ?? null,
    caller: e.caller,
    callerPrincipal: e.caller.principalId,
    channel: e.channel,
    arguments: e.arguments ?? null,
    status: e.status,
    isError: e.isError,
    result: e.result ?? null,
    error: e.error ?? null,
    attempts: e.attempts,
    startedAt: e.startedAt.toISOString(),
    durationMs: e.durationMs,
    ...(e.group ? { group: e.group } : {}),
    ...(e.interceptors?.length ? { interceptors: e.interceptors } : {}),
  };
}

/** The content of a stored record; null when the row is gone (a LEFT JOIN found none). */
export function recordContent(row: RecordRow): Record<string, unknown> | null {
  if (row.e_id === null) return null;
  return {
    id: row.e_id,
    toolId: row.tool_id,
    qualifiedName: row.qualified_name,
    sourceId: row.source_id,
    sourceName: row.source_name,
    definitionHash: row.definition_hash,
    caller: row.caller,
    callerPrincipal: row.caller_principal,
    channel: row.channel,
    arguments: row.arguments,
    status: row.status,
    isError: row.is_error,
    result: row.result,
    error: row.error,
    attempts: row.attempts,
    startedAt: row.started_at.toISOString(),
    durationMs: row.duration_ms,
    ...(row.group_name ? { group: row.group_name } : {}),
    ...(row.interceptors !== null && row.interceptors !== undefined ? { interceptors: row.interceptors } : {}),
  };
}

/** A link as stored in `execution_chain`, with its record's columns beside it. */
export interface LinkRow extends RecordRow {
  seq: string;
  execution_id: string;
  prev_hash: string;
  hash: string;
  signature: string | null;
  key_id: string | null;
}

export function toChainedExecution(row: LinkRow): ChainedExecution {
  const content = recordContent(row);
  return {
    seq: Number(row.seq),
    id: row.execution_id,
    prevHash: row.prev_hash,
    hash: row.hash,
    signature: row.signature,
    keyId: row.key_id,
    digest: content === null ? null : recordDigest(content),
  };
}

/** The chain's anchor (see ChainAnchor), as `SELECT ${ANCHOR_COLUMNS} FROM execution_chain_anchor` reads it. */
export const ANCHOR_COLUMNS = 'seq, hash, purged_before, purged_count, signature, key_id';

export interface AnchorRow {
  seq: string;
  hash: string;
  purged_before: Date | null;
  purged_count: string;
  signature: string | null;
  key_id: string | null;
}

export function toAnchor(row: AnchorRow | undefined): ChainAnchor {
  if (!row) return NOTHING_PURGED;
  return {
    seq: Number(row.seq),
    hash: row.hash,
    purgedBefore: row.purged_before,
    purgedCount: Number(row.purged_count),
    signature: row.signature,
    keyId: row.key_id,
  };
}
