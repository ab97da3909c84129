import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY, isSpecType } from '@modelcontextprotocol/server';
import type { LogLevel } from '../../execution/domain/tool-invoker.port.js';
import { isLogLevel } from '../../../upstream/upstream-call-relay.js';
import { EXECUTION_META_KEY, type ServedEra } from './call-result.js';
import { isRecord } from '../../../shared/is-record.js';

/** The one 2026-07-28 revision served, and the 2025-era ones a stateless `tools/call` is taken from. */
const MODERN_VERSION = '2026-07-28';
const LEGACY_VERSIONS = new Set(['2025-11-25', '2025-06-18', '2025-03-26']);
const RESERVED_META_PREFIX = 'io.modelcontextprotocol/';
const ENVELOPE_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, LOG_LEVEL_META_KEY]);
const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);

/** A plain stateless `tools/call`, everything Toolplane needs to serve it taken from the request. */
export interface StatelessToolCall {
  era: ServedEra;
  id: string | number;
  name: string;
  arguments?: Record<string, unknown>;
  progressToken?: string | number;
  /** The level the caller hears log messages at: the envelope's (2026-07-28), every level (2025 era), or none. */
  logLevel?: LogLevel;
  protocolVersion: string;
  /** The envelope's (2026-07-28); a sessionless 2025-era caller declares none. */
  clientCapabilities: Record<string, unknown>;
  clientInfo?: { name: string; version: string };
  /** The request's `_meta` asked for the execution in the result. */
  executionMeta: boolean;
}

/**
 * Recognises the common case of an MCP request — a stateless `tools/call` of either era, as every
 * SDK client sends it — so that it can be served without a per-exchange SDK server. Recognition is
 * strict: anything it does not positively know to be well-formed (other methods, sessions,
 * continuations with `inputResponses`/`requestState`, `Mcp-Param-*` headers, encoded names, unknown
 * envelope keys, unusual `Accept` headers) answers undefined and goes to the SDK, whose validation
 * ladder answers it, errors included. So nothing this accepts is answered differently by the SDK.
 *
 * @param header a request header by lower-case name
 * @param headerNames the request's header names, lower case
 */
export function recognizeStatelessToolCall(body: unknown, header: (name: string) => string | undefined, headerNames: readonly string[]): StatelessToolCall | undefined {
  if (!isRecord(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  const { id, params } = body;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return undefined;
  if (!isRecord(params) || !Object.keys(params).every((key) => PARAM_KEYS.has(key))) return undefined;
  const { name, arguments: args, _meta: meta = {} } = params;
  if (typeof name !== 'string' || name.length === 0 || (args !== undefined && !isRecord(args)) || !isRecord(meta)) return undefined;
  if (!acceptsJsonAndEventStream(header('accept')) || header('mcp-session-id') !== undefined) return undefined;
  if (headerNames.some((headerName) => headerName.startsWith('mcp-param-'))) return undefined;
  const { progressToken } = meta;
  if (progressToken !== undefined && typeof progressToken !== 'string' && !(typeof progressToken === 'number' && Number.isFinite(progressToken))) return undefined;

  const version = header('mcp-protocol-version');
  const executionMeta = meta[EXECUTION_META_KEY] === true;
  const reserved = Object.keys(meta).filter((key) => key.startsWith(RESERVED_META_PREFIX));
  if (reserved.length === 0) {
    // A 2025-era request: its version header, nothing of the 2026-07-28 framing.
    if (version === undefined || !LEGACY_VERSIONS.has(version) || header('mcp-method') !== undefined || header('mcp-name') !== undefined) return undefined;
    return withOptionals({ era: 'legacy', id, name, executionMeta, protocolVersion: version, clientCapabilities: {}, logLevel: 'debug' }, args, progressToken);
  }

  if (!reserved.every((key) => ENVELOPE_KEYS.has(key))) return undefined;
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  const clientInfo = meta[CLIENT_INFO_META_KEY];
  const logLevel = meta[LOG_LEVEL_META_KEY];
  if (meta[PROTOCOL_VERSION_META_KEY] !== MODERN_VERSION || version !== MODERN_VERSION) return undefined;
  if (header('mcp-method') !== 'tools/call' || header('mcp-name') !== name || !isPlainHeaderValue(name)) return undefined;
  // The SDK's own schemas for what the envelope declares.
  if (!isRecord(capabilities) || !wellFormedCapabilities.check(capabilities)) return undefined;
  if (clientInfo !== undefined && !wellFormedClientInfo.check(clientInfo)) return undefined;
  if (logLevel !== undefined && !isLogLevel(logLevel)) return undefined;
  const call = withOptionals({ era: 'modern', id, name, executionMeta, protocolVersion: MODERN_VERSION, clientCapabilities: capabilities }, args, progressToken);
  if (clientInfo !== undefined) call.clientInfo = { name: clientInfo.name, version: clientInfo.version };
  if (logLevel !== undefined) call.logLevel = logLevel;
  return call;
}

/**
 * A check of parsed JSON remembered by the value's JSON text. A client sends the same capabilities
 * and clientInfo with every call, and the SDK's schemas for them were a measurable share of each
 * call's CPU; the check of a JSON value depends on its text alone. Bounded: short texts only, and
 * at most MAX_REMEMBERED of them (forgotten all at once when full).
 */
export class RememberedCheck<T> {
  static readonly MAX_TEXT_LENGTH = 2_048;
  static readonly MAX_REMEMBERED = 256;
  private readonly passed = new Set<string>();

  constructor(private readonly test: (value: unknown) => value is T) {}

  check(value: unknown): value is T {
    const text = JSON.stringify(value);
    const rememberable = text !== undefined && text.length <= RememberedCheck.MAX_TEXT_LENGTH;
    if (rememberable && this.passed.has(text)) return true;
    const passes = this.test(value);
    if (passes && rememberable) {
      if (this.passed.size >= RememberedCheck.MAX_REMEMBERED) this.passed.clear();
      this.passed.add(text);
    }
    return passes;
  }

  get size(): number {
    return this.passed.size;
  }
}

const wellFormedCapabilities = new RememberedCheck(isSpecType.ClientCapabilities);
const wellFormedClientInfo = new RememberedCheck(isSpecType.Implementation);

/** The call with its optional members set only when present (assigned, not spread: this runs on every call). */
function withOptionals(call: StatelessToolCall, args: Record<string, unknown> | undefined, progressToken: string | number | undefined): StatelessToolCall {
  if (args !== undefined) call.arguments = args;
  if (progressToken !== undefined) call.progressToken = progressToken;
  return call;
}

/** An Accept header naming both answers a call may get, without weights (which could refuse one). */
function acceptsJsonAndEventStream(accept: string | undefined): boolean {
  if (accept === undefined || accept.includes('q=')) return false;
  const types = accept.split(',').map((range) => range.split(';')[0]!.trim().toLowerCase());
  return types.includes('application/json') && types.includes('text/event-stream');
}

/** A name its `Mcp-Name` header carries as is (visible ASCII, no surrounding blanks, not the base64 form). */
function isPlainHeaderValue(value: string): boolean {
  return value === value.trim() && /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !value.startsWith('=?base64?');
}
