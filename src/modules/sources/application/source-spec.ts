import { DEFAULT_PINNING, type PinningMode } from '../../inventory/domain/pinning/pinning.js';
import type { SourceProps } from '../domain/source.js';
import {
  type CircuitBreakerSettings,
  DEFAULT_CIRCUIT_BREAKER,
  DEFAULT_MAX_CONCURRENCY,
  DEFAULT_REFRESH_INTERVAL_SECONDS,
  DEFAULT_TIMEOUT_MS,
  type SandboxSettings,
} from '../domain/source-settings.js';
import type { StdioLifecycle, TransportKind } from '../domain/source-settings.js';

/** A registration as the interface layer hands it over, already shape-checked. */
export interface SourceSpecInput {
  name: string;
  description?: string | null;
  transport: TransportKind;
  lifecycle?: StdioLifecycle;
  pluginDir?: string | null;
  packageIndex?: number;
  command?: string | null;
  args?: string[] | null;
  cwd?: string | null;
  sandbox?: SandboxSettings;
  url?: string | null;
  headers?: Record<string, string>;
  env?: Record<string, string>;
  /** As given (foreign JSON), checked as a whole by checkUpstreamAuth; null: shared. */
  upstreamAuth?: unknown;
  readOnly?: boolean;
  timeoutMs?: number;
  maxConcurrency?: number;
  rateLimitPerMinute?: number | null;
  refreshIntervalSeconds?: number;
  circuitBreaker?: CircuitBreakerSettings;
  pinning?: PinningMode;
  enabled?: boolean;
}

export type SourceChangesInput = Partial<Omit<SourceSpecInput, 'name' | 'transport'>> & { version?: number };

export type SourceSettings = Pick<SourceProps, 'description' | 'readOnly' | 'timeoutMs' | 'maxConcurrency' | 'rateLimitPerMinute' | 'refreshIntervalSeconds' | 'circuitBreaker' | 'pinning' | 'enabled'>;

/** A registration's settings besides the connection, with the default of each one it leaves out. */
export function settingsOf(spec: SourceSpecInput): SourceSettings {
  const breaker = Object.fromEntries(Object.entries(spec.circuitBreaker ?? {}).filter(([, v]) => v !== undefined));
  return {
    description: spec.description ?? null,
    readOnly: spec.readOnly ?? false,
    timeoutMs: spec.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxConcurrency: spec.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
    rateLimitPerMinute: spec.rateLimitPerMinute ?? null,
    refreshIntervalSeconds: spec.refreshIntervalSeconds ?? DEFAULT_REFRESH_INTERVAL_SECONDS,
    circuitBreaker: { ...DEFAULT_CIRCUIT_BREAKER, ...breaker },
    pinning: spec.pinning ?? DEFAULT_PINNING,
    enabled: spec.enabled ?? true,
  };
}
