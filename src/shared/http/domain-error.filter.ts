import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ErrorKind, ProblemDetail } from '../domain-error.js';

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  upstream: 502,
  unavailable: 503,
  timeout: 504,
  internal: 500,
};

/** Framework-level failures (routing, body parsing) translated into stable codes. */
const CODE_BY_STATUS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

export interface ErrorPayload {
  status: number;
  code: string;
  message: string;
  details: ProblemDetail[];
  retryAfterSeconds?: number;
}

/** Maps every error to `{"error": {code, message, details}}`; nothing internal leaks. */
@Catch()
export class DomainErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const payload = errorPayloadOf(exception);
    if (payload.status >= 500 && !(exception instanceof DomainError)) {
      // Named explicitly: tool calls do not run in the request context (see requestContext).
      const requestId = host.switchToHttp().getRequest<FastifyRequest | undefined>()?.id;
      this.logger.error({ msg: exception instanceof Error ? (exception.stack ?? exception.message) : String(exception), ...(requestId !== undefined ? { requestId } : {}) });
    }
    if (payload.retryAfterSeconds !== undefined) reply.header('Retry-After', String(payload.retryAfterSeconds));
    void reply
      .status(payload.status)
      .header('Content-Type', 'application/json; charset=utf-8')
      .send({ error: { code: payload.code, message: payload.message, details: payload.details } });
  }
}

/** The status, code, message and problems an error is answered with; nothing internal leaks. */
export function errorPayloadOf(exception: unknown): ErrorPayload {
  if (exception instanceof DomainError) {
    return {
      status: STATUS_BY_KIND[exception.kind],
      code: exception.code,
      message: exception.message,
      details: exception.details,
      retryAfterSeconds: exception.retryAfterSeconds,
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    // The Fastify adapter wraps body-parsing failures; their codes say what went wrong.
    const cause = exception.cause as { code?: string } | undefined;
    if (typeof cause?.code === 'string' && cause.code.startsWith('FST_')) return fromFastifyError(status, cause.code, exception.message);
    return { status, code: CODE_BY_STATUS[status] ?? 'HTTP_ERROR', message: exception.message, details: [] };
  }
  const fastifyError = exception as { statusCode?: number; code?: string; message?: string };
  if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode < 500) {
    return fromFastifyError(fastifyError.statusCode, fastifyError.code, fastifyError.message ?? '');
  }
  return { status: 500, code: 'INTERNAL_ERROR', message: 'An unexpected error occurred.', details: [] };
}

function fromFastifyError(status: number, code: string | undefined, message: string): ErrorPayload {
  switch (code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, code: 'INVALID_JSON', message: 'The request body is not valid JSON.', details: [{ path: 'body', message }] };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.', details: [] };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as application/json.', details: [] };
    default:
      return { status, code: CODE_BY_STATUS[status] ?? 'BAD_REQUEST', message, details: [] };
  }
}
