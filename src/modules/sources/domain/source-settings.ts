import type { PinningMode } from '../../inventory/domain/pinning/pinning.js';

export { DEFAULT_PINNING, type PinningMode } from '../../inventory/domain/pinning/pinning.js';

export type TransportKind = 'stdio' | 'streamable-http' | 'sse';
export type StdioLifecycle = 'transient' | 'singleton';

export const SOURCE_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const TRANSPORTS: readonly TransportKind[] = ['stdio', 'streamable-http', 'sse'];
export const LIFECYCLES: readonly StdioLifecycle[] = ['transient', 'singleton'];

export interface CircuitBreakerSettings {
  failureThreshold: number;
  resetTimeoutMs: number;
}

/** How a source's calls and discoveries are governed: the settings its record and its view share. */
export interface SourcePolicies {
  readOnly: boolean;
  timeoutMs: number;
  maxConcurrency: number;
  /** Calls per minute to each of its tools, from all callers together; null: no limit. */
  rateLimitPerMinute: number | null;
  refreshIntervalSeconds: number;
  circuitBreaker: CircuitBreakerSettings;
  /** How new and changed tool definitions are admitted: auto, review or off (see pinning). */
  pinning: PinningMode;
}

/** The policies of anything that carries them (a stored row, a record), and nothing else of it. */
export function policiesOf(from: SourcePolicies): SourcePolicies {
  const { readOnly, timeoutMs, maxConcurrency, rateLimitPerMinute, refreshIntervalSeconds, circuitBreaker, pinning } = from;
  return { readOnly, timeoutMs, maxConcurrency, rateLimitPerMinute, refreshIntervalSeconds, circuitBreaker, pinning };
}

export const DEFAULT_CIRCUIT_BREAKER: CircuitBreakerSettings = { failureThreshold: 5, resetTimeoutMs: 30_000 };
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_CONCURRENCY = 16;
export const DEFAULT_REFRESH_INTERVAL_SECONDS = 300;

export type SourceHealth = 'unknown' | 'healthy' | 'degraded' | 'unhealthy' | 'awaiting_connection';
export const SOURCE_HEALTHS: readonly SourceHealth[] = ['unknown', 'healthy', 'degraded', 'unhealthy', 'awaiting_connection'];

/** Consecutive failed refreshes from which a source counts as unhealthy. */
export const UNHEALTHY_AFTER_FAILURES = 3;

/** What a stdio source's sandbox adds to the base view (the host read-only, a private /tmp, Toolplane's data hidden). */
export interface SandboxSettings {
  /** Network access, loopback included (default true). */
  network?: boolean;
  /** Absolute host paths made visible read-only (e.g. under /tmp, which is private otherwise). */
  readOnlyPaths?: string[];
  /** Absolute host paths the plugin may write to (they must be writable by the sandbox user). */
  writablePaths?: string[];
}

