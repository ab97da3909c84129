import type { ApiPath, BodyOf, Method, PathParamsOf, PathWith, Problem, QueryOf, ResponseOf } from '../api-types/rest-api.js';
import { ApiError, ServerUnreachable } from './errors.js';

type QueryValue = string | number | boolean | undefined;
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  query?: Query;
  /** A JSON body (sent as application/json). */
  json?: unknown;
  /** A body sent as it is, with its own content type. */
  text?: { body: string; contentType: string };
  accept?: string;
  headers?: Record<string, string>;
  /** Abort after this long (undefined: wait as long as the server takes, e.g. for a call). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Statuses answered as a result instead of an error (e.g. a health check's 503). */
  acceptStatuses?: number[];
}

/**
 * A request to an operation openapi.yaml documents: the values of its path's `{parameters}`, and
 * its query and JSON body as the document describes them.
 */
export type ApiRequest<P extends ApiPath, M extends Method> = Omit<RequestOptions, 'query' | 'json'> & {
  query?: QueryFor<P, M>;
  json?: BodyOf<P, M>;
} & ([PathParamsOf<P, M>] extends [never] ? { params?: never } : { params: PathParamsOf<P, M> });

/** Each documented query parameter as a query string carries it (one the document leaves untyped: any such value). */
export type QueryFor<P extends ApiPath, M extends Method> = { [K in keyof QueryOf<P, M>]?: QueryOf<P, M>[K] & QueryValue };
/** The options may be left out when nothing in them is required (no path parameters). */
type OptionsArgument<O> = object extends O ? [options?: O] : [options: O];
type HttpMethod = Uppercase<Method>;

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or the text when it is not JSON. */
  body: T;
  text: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** The REST API over Node's fetch: errors in the API's one shape become ApiError, no answer ServerUnreachable. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly key: string | undefined,
    private readonly userAgent = 'toolplane-cli',
    /** How to give a key, told with a 401 instead of the server's advice on HTTP headers. */
    private readonly keyAdvice?: string,
  ) {}

  get hasKey(): boolean {
    return this.key !== undefined;
  }

  /** A documented operation, e.g. `request('GET', '/api/v1/tools/{qualifiedName}', { params: { qualifiedName } })`; the body is its 2xx answer. */
  async request<M extends HttpMethod, P extends PathWith<Lowercase<M>>>(method: M, path: P, ...[options]: OptionsArgument<ApiRequest<P, Lowercase<M>>>): Promise<ApiResponse<ResponseOf<P, Lowercase<M>>>> {
    const plain = (options ?? {}) as RequestOptions & { params?: Record<string, string> };
    const { response, timeoutMs } = await this.send(method, fillPath(path, plain.params), plain);
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      if (plain.signal?.aborted) throw error;
      throw new ServerUnreachable(this.baseUrl, describeFetchFailure(error, timeoutMs));
    }
    return this.answer(response.status, response.headers, text, plain);
  }

  /**
   * Like request, accepting a Server-Sent Events answer as well: each event but the last goes to
   * `onEvent`; the last (`result`) carries the status and body of the plain answer.
   */
  async requestWithEvents<M extends HttpMethod, P extends PathWith<Lowercase<M>>>(
    method: M,
    path: P,
    options: ApiRequest<P, Lowercase<M>>,
    onEvent: (event: string, data: unknown) => void,
  ): Promise<ApiResponse<ResponseOf<P, Lowercase<M>>>> {
    const plain = options as RequestOptions & { params?: Record<string, string> };
    const { response, timeoutMs } = await this.send(method, fillPath(path, plain.params), { ...plain, accept: 'application/json, text/event-stream' });
    try {
      if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream') || !response.body) {
        return this.answer(response.status, response.headers, await response.text(), plain);
      }
      let result: { status: number; body: unknown } | undefined;
      for await (const { event, data } of serverSentEvents(response.body)) {
        if (event === 'result') result = data as { status: number; body: unknown };
        else onEvent(event, data);
      }
      if (!result) throw new ServerUnreachable(this.baseUrl, 'the answer ended before its result');
      return this.answer(result.status, response.headers, JSON.stringify(result.body), plain, result.body);
    } catch (error) {
      if (error instanceof ApiError || error instanceof ServerUnreachable || plain.signal?.aborted) throw error;
      throw new ServerUnreachable(this.baseUrl, describeFetchFailure(error, timeoutMs));
    }
  }

  /**
   * A documented GET answered as Server-Sent Events (an execution's events): each event goes to
   * `onEvent` as it arrives, until the server ends the stream; an error answer throws as request() does.
   */
  async followEvents<P extends PathWith<'get'>>(path: P, options: ApiRequest<P, 'get'>, onEvent: (event: string, data: unknown) => void): Promise<void> {
    const plain = options as RequestOptions & { params?: Record<string, string> };
    const { response, timeoutMs } = await this.send('GET', fillPath(path, plain.params), { ...plain, accept: 'text/event-stream' });
    try {
      if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream') || !response.body) {
        this.answer(response.status, response.headers, await response.text(), plain);
        throw new ServerUnreachable(this.baseUrl, 'the answer was not an event stream');
      }
      for await (const { event, data } of serverSentEvents(response.body)) onEvent(event, data);
    } catch (error) {
      if (error instanceof ApiError || error instanceof ServerUnreachable || plain.signal?.aborted) throw error;
      throw new ServerUnreachable(this.baseUrl, describeFetchFailure(error, timeoutMs));
    }
  }

  private async send(method: string, path: string, options: RequestOptions): Promise<{ response: Response; timeoutMs: number | undefined }> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { accept: options.accept ?? 'application/json', 'user-agent': this.userAgent, ...options.headers };
    if (this.key) headers.authorization = `Bearer ${this.key}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    } else if (options.text) {
      body = options.text.body;
      headers['content-type'] = options.text.contentType;
    }
    const timeoutMs = 'timeoutMs' in options ? options.timeoutMs : DEFAULT_TIMEOUT_MS;
    const signals = [options.signal, timeoutMs !== undefined ? AbortSignal.timeout(timeoutMs) : undefined].filter((s): s is AbortSignal => s !== undefined);
    try {
      const response = await fetch(url, { method, headers, body, signal: signals.length > 0 ? AbortSignal.any(signals) : undefined });
      return { response, timeoutMs };
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new ServerUnreachable(this.baseUrl, describeFetchFailure(error, timeoutMs));
    }
  }

  private answer<T>(status: number, headers: Headers, text: string, options: RequestOptions, parsedBody?: unknown): ApiResponse<T> {
    const parsed = parsedBody !== undefined ? parsedBody : parseBody(text, headers.get('content-type'));
    if ((status >= 200 && status < 300) || options.acceptStatuses?.includes(status)) {
      return { status, headers, body: parsed as T, text };
    }
    const error = toApiError(status, parsed, text);
    if (status === 401 && this.keyAdvice !== undefined) {
      throw new ApiError(status, error.code, this.hasKey ? error.message : 'no API key was given', error.problems, error.body, this.keyAdvice);
    }
    throw error;
  }

  /** The body of a documented GET's answer. */
  async getJson<P extends PathWith<'get'>>(path: P, ...options: OptionsArgument<ApiRequest<P, 'get'>>): Promise<ResponseOf<P, 'get'>> {
    return (await this.request('GET', path, ...options)).body;
  }
}

/** `/api/v1/tools/{qualifiedName}` with each `{parameter}` replaced by its value, encoded as one path segment. */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(value);
  });
}

function parseBody(text: string, contentType: string | null): unknown {
  if (text === '') return undefined;
  if (contentType && !/json/i.test(contentType)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toApiError(status: number, body: unknown, text: string): ApiError {
  const error = (body as { error?: unknown } | undefined)?.error;
  if (error && typeof error === 'object') {
    const { code, message, details } = error as { code?: unknown; message?: unknown; details?: unknown };
    const problems = Array.isArray(details) ? details.filter(isProblem) : [];
    return new ApiError(status, typeof code === 'string' ? code : `HTTP_${status}`, typeof message === 'string' ? message : `HTTP ${status}`, problems, body);
  }
  // Not Toolplane's error shape: a proxy in between, or not Toolplane at all.
  const snippet = text.trim().slice(0, 200);
  return new ApiError(status, `HTTP_${status}`, `the server answered HTTP ${status}${snippet ? `: ${snippet}` : ''}`, [], body);
}

function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && typeof (value as Problem).path === 'string' && typeof (value as Problem).message === 'string';
}

function describeFetchFailure(error: unknown, timeoutMs: number | undefined): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused (is it running? start it with "toolplane serve")';
  if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN') return `unknown host (${cause.code})`;
  if (cause?.code) return `${cause.code}${cause.message ? `: ${cause.message}` : ''}`;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** The events of a Server-Sent Events body, as they arrive; data that is not JSON is given as text. */
async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: unknown }> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length === 0) continue;
      const text = data.join('\n');
      let value: unknown = text;
      try {
        value = JSON.parse(text);
      } catch {
        // not JSON: kept as text
      }
      yield { event, data: value };
    }
  }
}
