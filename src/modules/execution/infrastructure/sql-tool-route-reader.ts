import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import type { CircuitBreakerSettings } from '../../sources/domain/source-settings.js';
import { QUALIFIED_NAME_PATTERN } from '../../inventory/domain/qualified-name.js';
import { ToolRoute, ToolRouteReader } from '../application/tool-route.js';

interface Row {
  id: string;
  name: string;
  qualified_name: string;
  definition_hash: string;
  input_schema: Record<string, unknown>;
  output_schema: Record<string, unknown> | null;
  annotations: Record<string, unknown> | null;
  unusable_reason: string | null;
  status: 'active' | 'deprecated';
  enabled: boolean;
  source_id: string;
  source_name: string;
  source_enabled: boolean;
  read_only: boolean;
  timeout_ms: number;
  max_concurrency: number;
  rate_limit_per_minute: number | null;
  circuit_breaker: CircuitBreakerSettings;
}

export class SqlToolRouteReader extends ToolRouteReader {
  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
  }

  async read(qualifiedName: string): Promise<ToolRoute | undefined> {
    // Every published name has this shape; anything else names no tool (and may not even be storable).
    if (!QUALIFIED_NAME_PATTERN.test(qualifiedName)) return undefined;
    const rows: Row[] = await this.uow.manager().query(
      `SELECT t.id, t.name, t.qualified_name, t.definition_hash, t.definition->'inputSchema' AS input_schema, t.definition->'outputSchema' AS output_schema, t.annotations, t.unusable_reason,
              t.status, t.enabled, s.id AS source_id, s.name AS source_name, s.enabled AS source_enabled,
              s.read_only, s.timeout_ms, s.max_concurrency, s.rate_limit_per_minute, s.circuit_breaker
         FROM source_tools t JOIN sources s ON s.id = t.source_id
        WHERE t.qualified_name = $1 AND t.retired_at IS NULL AND s.deleted_at IS NULL`,
      [qualifiedName],
    );
    const r = rows[0];
    if (!r) return undefined;
    return {
      tool: {
        id: r.id,
        name: r.name,
        qualifiedName: r.qualified_name,
        definitionHash: r.definition_hash,
        inputSchema: r.input_schema,
        outputSchema: r.output_schema,
        annotations: r.annotations,
        unusableReason: r.unusable_reason,
        status: r.status,
        enabled: r.enabled,
      },
      source: {
        id: r.source_id,
        name: r.source_name,
        enabled: r.source_enabled,
        readOnly: r.read_only,
        timeoutMs: r.timeout_ms,
        maxConcurrency: r.max_concurrency,
        rateLimitPerMinute: r.rate_limit_per_minute,
        circuitBreaker: r.circuit_breaker,
      },
    };
  }
}
