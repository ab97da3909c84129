import type { CircuitBreakerSettings, SandboxSettings } from '../domain/source-settings.js';
import type { StdioLifecycle, TransportKind } from '../domain/upstream.js';

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
  readOnly?: boolean;
  timeoutMs?: number;
  maxConcurrency?: number;
  rateLimitPerMinute?: number | null;
  refreshIntervalSeconds?: number;
  circuitBreaker?: CircuitBreakerSettings;
  enabled?: boolean;
}

export type SourceChangesInput = Partial<Omit<SourceSpecInput, 'name' | 'transport'>> & { version?: number };
