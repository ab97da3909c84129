import { PassThrough } from 'node:stream';
import { buildProgram } from '../program.js';

export interface SeenRequest {
  method: string;
  path: string;
  authorization: string | null;
  accept: string | null;
  body: unknown;
}

/** An answer of the stand-in API, by "METHOD /path?query". */
export type CliRoute = (request: SeenRequest) => { status: number; body?: unknown };

/**
 * The commands run in this process against an in-memory stand-in for Toolplane's REST API (the
 * answers the contract describes), their stdout and stderr captured.
 */
export async function runCli(args: string[], routes: Record<string, CliRoute>, stdin?: string) {
  const seen: SeenRequest[] = [];
  const stdout: string[] = [];
  const stderr: string[] = [];
  const saved = { fetch: globalThis.fetch, out: process.stdout.write, err: process.stderr.write, stdin: Object.getOwnPropertyDescriptor(process, 'stdin')! };
  globalThis.fetch = (async (input: URL | string, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const headers = new Headers(init.headers);
    const request: SeenRequest = { method: init.method ?? 'GET', path: url.pathname + url.search, authorization: headers.get('authorization'), accept: headers.get('accept'), body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined };
    seen.push(request);
    const route = routes[`${request.method} ${request.path}`];
    const answer = route ? route(request) : { status: 404, body: { error: { code: 'NOT_FOUND', message: `no route ${request.method} ${request.path}`, details: [] } } };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  process.stdout.write = ((chunk: string) => stdout.push(String(chunk)) > 0) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => stderr.push(String(chunk)) > 0) as typeof process.stderr.write;
  if (stdin !== undefined) Object.defineProperty(process, 'stdin', { value: Object.assign(PassThrough.from([Buffer.from(stdin)]), { isTTY: false }), configurable: true });
  let error: unknown;
  try {
    await buildProgram().parseAsync(['node', 'toolplane', '--url', 'http://127.0.0.1:9', '--key', 'tp_test_key', '--no-color', ...args]);
  } catch (thrown) {
    error = thrown;
  } finally {
    globalThis.fetch = saved.fetch;
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    Object.defineProperty(process, 'stdin', saved.stdin);
  }
  return { seen, stdout: stdout.join(''), stderr: stderr.join(''), error };
}
