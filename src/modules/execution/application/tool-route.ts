import type { CircuitBreakerSettings } from '../../sources/domain/source-settings.js';

/** Everything the pipeline needs to know about a tool and its source, read in one go. */
export interface ToolRoute {
  tool: {
    id: string;
    name: string;
    qualifiedName: string;
    definitionHash: string;
    inputSchema: Record<string, unknown>;
    outputSchema: Record<string, unknown> | null;
    annotations: Record<string, unknown> | null;
    /** Why the tool cannot be called; null when it can. */
    unusableReason: string | null;
    status: 'active' | 'deprecated';
    enabled: boolean;
  };
  source: {
    id: string;
    name: string;
    enabled: boolean;
    readOnly: boolean;
    timeoutMs: number;
    maxConcurrency: number;
    /** Calls per minute to each of its tools; null: no limit. */
    rateLimitPerMinute: number | null;
    circuitBreaker: CircuitBreakerSettings;
  };
}
