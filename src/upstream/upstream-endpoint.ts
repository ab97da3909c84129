import { createHash } from 'node:crypto';
import type { UpstreamTarget } from '../modules/sources/domain/upstream.js';

/** How an upstream is named in messages: the command for stdio, the URL without credentials or query for remote. */
export function endpointLabel(target: UpstreamTarget): string {
  if (target.transport === 'stdio') return target.command ?? '(no command)';
  if (!target.url) return '(no url)';
  try {
    const url = new URL(target.url);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(invalid url)';
  }
}

/** Every configured value that may be a credential and must never be echoed. */
export function secretValues(target: UpstreamTarget): string[] {
  const values = [...Object.values(target.headers ?? {}), ...Object.values(target.env ?? {})];
  if (target.url) {
    try {
      const url = new URL(target.url);
      values.push(decodeURIComponent(url.password), ...url.searchParams.values());
    } catch {
      // an unparsable URL is reported as such, never printed
    }
  }
  return values.filter((value) => value.length > 0);
}

/** Hash of everything that shapes a connection; a pooled connection whose fingerprint differs is replaced. */
export function connectionFingerprint(target: UpstreamTarget): string {
  let fingerprint = fingerprints.get(target);
  if (fingerprint === undefined) {
    fingerprint = computeFingerprint(target);
    fingerprints.set(target, fingerprint);
  }
  return fingerprint;
}

/** Targets are immutable and reused by every call for a while (RouteCache): hash each once. */
const fingerprints = new WeakMap<UpstreamTarget, string>();

function computeFingerprint(target: UpstreamTarget): string {
  const relevant =
    target.transport === 'stdio'
      ? {
          transport: target.transport,
          lifecycle: target.lifecycle,
          command: target.command,
          args: target.args,
          cwd: target.cwd ?? null,
          pluginDir: target.pluginDir ?? null,
          sandbox: target.sandbox ?? null,
          env: sorted(target.env),
        }
      : { transport: target.transport, url: target.url, headers: sorted(target.headers) };
  return createHash('sha256').update(JSON.stringify(relevant)).digest('hex');
}

function sorted(record: Record<string, string> | undefined): [string, string][] {
  return Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
