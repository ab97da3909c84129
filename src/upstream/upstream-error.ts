export type UpstreamFailureKind =
  /** The stdio command could not start, or the process died. */
  | 'process'
  /** The remote endpoint could not be reached (refused, DNS, TLS, reset). */
  | 'unreachable'
  /** The endpoint answered with an HTTP error status. */
  | 'http'
  /** The time budget ran out. */
  | 'timeout'
  /** The caller cancelled. */
  | 'aborted'
  /** The server answered, but not with what MCP requires (JSON-RPC error, negotiation failure, bad reply). */
  | 'protocol'
  /** The server exceeded one of Toolplane's limits (message size, pagination). */
  | 'limit'
  /** The source's configuration cannot be used (e.g. no command or URL). */
  | 'configuration';

/** A failure talking to an upstream; the message is safe to show an operator (no header or env values). */
export class UpstreamError extends Error {
  /** The HTTP status, for kind 'http'. */
  readonly httpStatus?: number;

  constructor(
    readonly kind: UpstreamFailureKind,
    message: string,
    options?: ErrorOptions & { httpStatus?: number },
  ) {
    super(message, options);
    this.name = 'UpstreamError';
    if (options?.httpStatus !== undefined) this.httpStatus = options.httpStatus;
  }
}

/** Failures a wrong recorded era produces: a protocol-level rejection, or an HTTP 4xx other than auth. */
export function mayStemFromStaleEra(error: unknown): boolean {
  if (!(error instanceof UpstreamError)) return false;
  if (error.kind === 'protocol') return true;
  const status = error.httpStatus;
  return error.kind === 'http' && status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}
