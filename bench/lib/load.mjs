// One bounded load run with autocannon's programmatic API, keeping every 2xx latency at full
// (sub-millisecond) precision: autocannon's own latency histogram holds whole milliseconds only.
import autocannon from 'autocannon';
import { setTimeout, clearTimeout } from 'node:timers';
import { performance } from 'node:perf_hooks';

/**
 * A fixed request: POST `body` to `url` with `headers`; `verify(bodyText)` says whether an answer
 * is the real result (a 2xx that is not is counted as a mismatch, i.e. an error).
 */
export function target(name, url, headers, body, verify) {
  return { name, url, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), verify };
}

/**
 * Loads `t` with `connections` connections for `seconds` seconds, or until `amount` responses when
 * given (then `seconds` is only the bound). `onStart`/`onEnd` run right before and after the load,
 * to take measurements around exactly this window; `onResponse(n)` after the n-th answer.
 */
export async function load(t, { connections, seconds, amount, onStart, onEnd, onResponse }) {
  const latencies = [];
  let completed = 0;
  const options = {
    url: t.url,
    method: 'POST',
    headers: t.headers,
    body: t.body,
    connections,
    timeout: 10,
    verifyBody: t.verify,
  };
  if (amount !== undefined) options.amount = amount;
  else options.duration = seconds;

  onStart?.();
  const startedAtMs = Date.now();
  const startedAt = process.hrtime.bigint();
  const instance = autocannon(options);
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    completed++;
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    onResponse?.(completed);
  });
  // A fixed amount of calls is still bounded in time.
  const bound = amount !== undefined ? setTimeout(() => instance.stop(), seconds * 1000) : undefined;
  const result = await instance;
  if (bound) clearTimeout(bound);
  const elapsedS = Number(process.hrtime.bigint() - startedAt) / 1e9;
  const endedAtMs = Date.now();
  const end = onEnd?.();

  const ok2xx = latencies.length;
  const non2xx = result.non2xx ?? 0;
  // verifyBody sees every answer, so a non-2xx one (whose body is no result) is also a mismatch.
  const mismatches = Math.max(0, (result.mismatches ?? 0) - non2xx);
  const sorted = Float64Array.from(latencies).sort();
  return {
    target: t.name,
    connections,
    elapsedS,
    startedAtMs,
    endedAtMs,
    completed,
    sent: result.requests?.sent ?? completed,
    ok: ok2xx - mismatches,
    non2xx,
    mismatches,
    errors: (result.errors ?? 0) + non2xx + mismatches,
    connectionErrors: result.errors ?? 0,
    timeouts: result.timeouts ?? 0,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)])),
    latencies: sorted,
    stoppedEarly: amount !== undefined && completed < amount,
    end,
  };
}

/**
 * Calls `call()` one at a time for `seconds` seconds, as `load` loads a target at one connection:
 * `call` answers whether the answer was the real result. The same figures as `load`'s.
 */
export async function loadCalls(name, call, { seconds }) {
  const latencies = [];
  let completed = 0;
  let errors = 0;
  const startedAt = performance.now();
  const deadline = startedAt + seconds * 1000;
  while (performance.now() < deadline) {
    const began = performance.now();
    let right;
    try {
      right = await call();
    } catch {
      right = false;
    }
    completed++;
    if (right) latencies.push(performance.now() - began);
    else errors++;
  }
  return { target: name, connections: 1, elapsedS: (performance.now() - startedAt) / 1000, completed, ok: latencies.length, errors, latencies: Float64Array.from(latencies).sort() };
}

/** The q-quantile (0..1) of a sorted array, nearest rank. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

/** Merges the sorted latency arrays of several runs. */
export function mergeSorted(arrays) {
  const total = arrays.reduce((n, a) => n + a.length, 0);
  const merged = new Float64Array(total);
  let offset = 0;
  for (const a of arrays) {
    merged.set(a, offset);
    offset += a.length;
  }
  return merged.sort();
}
