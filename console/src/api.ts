import { forgetKey, storedKey } from './session.js';
import type { Problem, ProgressEvent } from './types.js';

/** An answer that is not 2xx, in the API's one error shape (or a network failure: status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Problem[] = [],
    readonly body: unknown = undefined,
  ) {
    super(message);
  }
}

type Listener = (error: ApiError) => void;
const authListeners = new Set<Listener>();

/** Told when the credential stops working (revoked, expired): the shell signs out. */
export function onCredentialRejected(listener: Listener): () => void {
  authListeners.add(listener);
  return () => authListeners.delete(listener);
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  etag?: string;
  key?: string;
}

export interface Answer<T> {
  status: number;
  body: T;
  etag: string | null;
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<Answer<T>> {
  const key = options.key ?? storedKey();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.etag) headers['if-none-match'] = options.etag;
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw unreachable();
  }
  if (response.status === 304) return { status: 304, body: undefined as T, etag: options.etag ?? null };
  // A key given for one request (sign-in trying it) is not the session's: its refusal signs nobody out.
  const body = settle<T>(response.status, await response.text(), response.statusText, !options.key);
  return { status: response.status, body, etag: response.headers.get('etag') };
}

/**
 * POSTs a tool invocation accepting Server-Sent Events: the upstream's progress goes to
 * `onProgress` while the call runs, and the answer (its last event, or a plain JSON answer when
 * no progress came) is returned or thrown as request() would.
 */
export async function invokeWithProgress<T>(path: string, body: unknown, onProgress: (update: ProgressEvent) => void): Promise<T> {
  const key = storedKey();
  const headers: Record<string, string> = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  let response: Response;
  try {
    response = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body), credentials: 'omit', cache: 'no-store' });
  } catch {
    throw unreachable();
  }
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream') || !response.body) {
    return settle<T>(response.status, await response.text(), response.statusText, true);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (!event || data === undefined) continue;
      if (event === 'progress') onProgress(JSON.parse(data) as ProgressEvent);
      if (event === 'result') {
        const result = JSON.parse(data) as { status: number; body: unknown };
        return settle<T>(result.status, JSON.stringify(result.body), `HTTP ${result.status}`, true);
      }
    }
  }
  throw new ApiError(0, 'UNREACHABLE', 'The answer ended before its result.');
}

/** A status and body text as the API answered them: the parsed body, or the ApiError it stands for. */
function settle<T>(status: number, text: string, statusText: string, signOutOn401: boolean): T {
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (status >= 200 && status < 300) return body as T;
  const error = (body as { error?: { code?: string; message?: string; details?: Problem[] } } | undefined)?.error;
  const failure = new ApiError(status, error?.code ?? `HTTP_${status}`, error?.message ?? statusText, error?.details ?? [], body);
  if (status === 401 && signOutOn401) {
    forgetKey();
    authListeners.forEach((listener) => listener(failure));
  }
  throw failure;
}

function unreachable(): ApiError {
  return new ApiError(0, 'UNREACHABLE', 'Toolplane cannot be reached. Check that it is running and that this address is allowed.');
}

export async function get<T>(path: string, signal?: AbortSignal): Promise<T> {
  return (await request<T>(path, { signal })).body;
}

export async function send<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await request<T>(path, { method, body })).body;
}

/** A query string from the values that are set. */
export function query(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return error.message;
    if (error.status === 403) return `Not allowed: ${error.message}`;
    return `${error.message} (${error.code})`;
  }
  return error instanceof Error ? error.message : String(error);
}
