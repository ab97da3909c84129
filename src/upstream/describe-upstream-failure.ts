import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, SseError } from '@modelcontextprotocol/client';
import { STREAM_ENDED_MARK } from './http/request-scoped-http-transport.js';
import { isMessageTooLargeText, StdioMessageTooLargeError, StdioProcessExitError, StdioSpawnError, StdioStrayOutputError } from './stdio/stdio-errors.js';
import { SecretScrubber } from '../shared/secret-scrubber.js';
import { UpstreamError } from './upstream-error.js';

export interface FailureContext {
  /** What was being done, e.g. "connecting" or "listing tools". */
  phase: string;
  /** The operation's whole budget, for timeout messages. */
  timeoutMs?: number;
  /** Printable endpoint: the command for stdio, the URL without credentials/query for remote. */
  endpoint: string;
  /** Why the transport itself stopped, when it knows (stdio spawn failure, process exit, output that is not MCP). */
  transportFailure?: Error;
  /** What a stdio server wrote before it sent any JSON-RPC message (see StdioProcessTransport.startupReport); it explains a timeout. */
  startup?: string;
  /** Values that must never appear in a message (header and env values). */
  secrets: readonly string[];
}

/** Turns whatever the SDK, the transport or the network threw into an operator-readable UpstreamError. */
export function describeUpstreamFailure(error: unknown, context: FailureContext): UpstreamError {
  const described = explainTimeout(classify(error, context), context.startup);
  const message = redact(described.message, context.secrets);
  return message === described.message
    ? described
    : new UpstreamError(described.kind, message, { cause: described.cause, httpStatus: described.httpStatus });
}

function classify(error: unknown, context: FailureContext): UpstreamError {
  if (error instanceof UpstreamError) return error;

  // A dead process explains every secondary symptom (closed connection, failed probe, send errors).
  const failure = context.transportFailure;
  if (failure instanceof StdioSpawnError || failure instanceof StdioProcessExitError) {
    return new UpstreamError('process', failure.message, { cause: error });
  }
  if (error instanceof StdioSpawnError || error instanceof StdioProcessExitError) {
    return new UpstreamError('process', error.message, { cause: error });
  }
  if (failure instanceof StdioStrayOutputError) return new UpstreamError('protocol', failure.message, { cause: error });
  if (error instanceof StdioMessageTooLargeError) return new UpstreamError('limit', error.message, { cause: error });

  if (error instanceof SdkError) {
    if (error.code === SdkErrorCode.RequestTimeout) {
      return new UpstreamError('timeout', `timed out after ${context.timeoutMs ?? timeoutOf(error)} ms ${context.phase}`, { cause: error });
    }
    if (error.code === SdkErrorCode.ListPaginationExceeded) return new UpstreamError('limit', error.message, { cause: error });
  }
  if (isAbort(error)) return new UpstreamError('aborted', `cancelled while ${context.phase}`, { cause: error });

  const network = networkFailure(error, context.endpoint);
  if (network) return new UpstreamError('unreachable', network, { cause: error });

  const status = httpStatusOf(error);
  if (status !== undefined) return new UpstreamError('http', describeStatus(status, context.endpoint), { cause: error, httpStatus: status });

  if (error instanceof ProtocolError) {
    if ((error.data as Record<string, unknown> | undefined)?.[STREAM_ENDED_MARK] === true) {
      return new UpstreamError('unreachable', `${context.endpoint} ended the response stream without answering while ${context.phase}`, {
        cause: error,
      });
    }
    if (isMessageTooLargeText(error.message)) return new UpstreamError('limit', error.message, { cause: error });
    return new UpstreamError('protocol', `server returned an error while ${context.phase}: ${error.message} (code ${error.code})`, {
      cause: error,
    });
  }
  if (error instanceof SdkError) {
    switch (error.code) {
      case SdkErrorCode.ConnectionClosed:
        return new UpstreamError('unreachable', `connection to ${context.endpoint} closed while ${context.phase}`, { cause: error });
      case SdkErrorCode.EraNegotiationFailed:
        return new UpstreamError('protocol', `could not agree on a protocol version with ${context.endpoint}: ${lowerFirst(error.message)}`, {
          cause: error,
        });
      default:
        return new UpstreamError('protocol', `${context.phase} failed: ${error.message}`, { cause: error });
    }
  }
  return new UpstreamError('protocol', `${context.phase} ${context.endpoint} failed: ${messageOf(error) || String(error)}`, { cause: error });
}

/** A timeout of a server that never spoke MCP says what it did instead (once: an explained timeout has the bare one as its cause). */
function explainTimeout(described: UpstreamError, startup: string | undefined): UpstreamError {
  if (described.kind !== 'timeout' || startup === undefined || described.cause instanceof UpstreamError) return described;
  return new UpstreamError('timeout', `${described.message}: ${startup}`, { cause: described });
}

const NETWORK_CODES: Record<string, (endpoint: string) => string> = {
  ECONNREFUSED: (endpoint) => `connection refused to ${endpoint}`,
  ENOTFOUND: (endpoint) => `could not resolve the host of ${endpoint}`,
  EAI_AGAIN: (endpoint) => `could not resolve the host of ${endpoint}`,
  ECONNRESET: (endpoint) => `connection to ${endpoint} was reset`,
  UND_ERR_SOCKET: (endpoint) => `connection to ${endpoint} was reset`,
  EPIPE: (endpoint) => `connection to ${endpoint} was reset`,
  ETIMEDOUT: (endpoint) => `connecting to ${endpoint} timed out at the network level`,
  UND_ERR_CONNECT_TIMEOUT: (endpoint) => `connecting to ${endpoint} timed out at the network level`,
  EHOSTUNREACH: (endpoint) => `host unreachable: ${endpoint}`,
  ENETUNREACH: (endpoint) => `network unreachable: ${endpoint}`,
  CERT_HAS_EXPIRED: (endpoint) => `TLS certificate of ${endpoint} has expired`,
  DEPTH_ZERO_SELF_SIGNED_CERT: (endpoint) => `TLS certificate of ${endpoint} is self-signed`,
  SELF_SIGNED_CERT_IN_CHAIN: (endpoint) => `TLS certificate of ${endpoint} is self-signed`,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: (endpoint) => `TLS certificate of ${endpoint} could not be verified`,
  ERR_TLS_CERT_ALTNAME_INVALID: (endpoint) => `TLS certificate of ${endpoint} does not match its host name`,
};

function networkFailure(error: unknown, endpoint: string): string | undefined {
  for (const link of causeChain(error)) {
    const code = (link as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES[code]) return NETWORK_CODES[code](endpoint);
    // SSE failures arrive flattened into a message ("SSE error: TypeError: fetch failed: connect ECONNREFUSED ...").
    const text = messageOf(link);
    const found = /\b(E[A-Z_]{3,}|UND_ERR_[A-Z_]+)\b/.exec(text)?.[1];
    if (found && NETWORK_CODES[found]) return NETWORK_CODES[found](endpoint);
    if (/\bbad port\b/.test(text)) return `the port of ${endpoint} is blocked by the HTTP client (fetch "bad port")`;
  }
  return undefined;
}

function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof SdkHttpError) return error.status;
  if (error instanceof SseError && typeof error.code === 'number' && error.code >= 400) return error.code;
  if (error instanceof SdkError && error.code === SdkErrorCode.ClientHttpAuthentication) return 401;
  if (error instanceof SdkError && error.code === SdkErrorCode.ClientHttpForbidden) return 403;
  if (error instanceof Error && error.name === 'UnauthorizedError') return 401;
  return undefined;
}

function describeStatus(status: number, endpoint: string): string {
  if (status === 401) return `HTTP 401 from ${endpoint}: authentication required or credentials rejected`;
  if (status === 403) return `HTTP 403 from ${endpoint}: access denied`;
  if (status === 404) return `HTTP 404 from ${endpoint}: no MCP endpoint at this URL`;
  return `HTTP ${status} from ${endpoint}`;
}

function isAbort(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}

function timeoutOf(error: SdkError): string {
  const timeout = (error.data as { timeout?: unknown } | undefined)?.timeout;
  return typeof timeout === 'number' ? String(timeout) : '?';
}

function* causeChain(error: unknown): Generator<unknown> {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current !== undefined && current !== null && !seen.has(current) && seen.size < 8) {
    seen.add(current);
    yield current;
    current = (current as { cause?: unknown }).cause ?? (current as { event?: { error?: unknown } }).event?.error;
  }
}

/** Duck-typed: errors from fetch may come from another realm, where instanceof Error fails. */
function messageOf(value: unknown): string {
  const message = (value as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : '';
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** Replaces every secret value in `message`, and its encoded forms; short values are skipped to keep messages readable. */
export function redact(message: string, secrets: readonly string[]): string {
  return new SecretScrubber(
    secrets.map((value) => ({ name: '', value })),
    () => '[redacted]',
  ).text(message);
}
