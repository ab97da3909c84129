import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { decodeCursor, encodeCursor } from '../../../shared/http/cursor.js';
import { ToolFilter, ToolPage, ToolView, ToolViews } from '../application/tool-view.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface ToolRow {
  id: string;
  qualified_name: string;
  name: string;
  source_id: string;
  source_name: string;
  source_enabled: boolean;
  source_read_only: boolean;
  title: string | null;
  description: string | null;
  input_schema: Record<string, unknown>;
  output_schema: Record<string, unknown> | null;
  annotations: Record<string, unknown> | null;
  definition_hash: string;
  status: 'active' | 'deprecated';
  enabled: boolean;
  first_seen_at: Date;
  last_seen_at: Date;
  updated_at: Date;
}

const SELECT = `
  SELECT t.id, t.qualified_name, t.name, t.source_id, s.name AS source_name, s.enabled AS source_enabled,
         s.read_only AS source_read_only, t.title, t.description, t.input_schema, t.output_schema, t.annotations,
         t.definition_hash, t.status, t.enabled, t.first_seen_at, t.last_seen_at, t.updated_at
    FROM source_tools t JOIN sources s ON s.id = t.source_id
   WHERE t.retired_at IS NULL AND s.deleted_at IS NULL`;

export class TypeormToolViews extends ToolViews {
  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
  }

  async get(qualifiedName: string): Promise<ToolView | undefined> {
    const rows: ToolRow[] = await this.uow.manager().query(`${SELECT} AND t.qualified_name = $1`, [qualifiedName]);
    return rows[0] ? toView(rows[0]) : undefined;
  }

  async list(filter: ToolFilter, cursor: string | undefined, limit: number): Promise<ToolPage> {
    const after = decodeCursor<{ q: string }>(cursor, ['q']);
    const where: string[] = [];
    const params: unknown[] = [];
    const bind = (value: unknown) => `$${params.push(value)}`;
    if (filter.source) {
      where.push(UUID.test(filter.source) ? `(s.id = ${bind(filter.source)} OR s.name = ${bind(filter.source)})` : `s.name = ${bind(filter.source)}`);
    }
    const status = filter.status ?? 'active';
    if (status !== 'all') where.push(`t.status = ${bind(status)}`);
    if (filter.enabled !== undefined) where.push(`t.enabled = ${bind(filter.enabled)}`);
    if (after) where.push(`t.qualified_name > ${bind(after.q)}`);
    const sql = `${SELECT}${where.map((w) => ` AND ${w}`).join('')} ORDER BY t.qualified_name LIMIT ${bind(limit + 1)}`;
    const rows: ToolRow[] = await this.uow.manager().query(sql, params);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { items: page.map(toView), nextCursor: rows.length > limit && last ? encodeCursor({ q: last.qualified_name }) : null };
  }
}

function toView(r: ToolRow): ToolView {
  return {
    id: r.id,
    qualifiedName: r.qualified_name,
    name: r.name,
    source: { id: r.source_id, name: r.source_name, enabled: r.source_enabled, readOnly: r.source_read_only },
    title: r.title,
    description: r.description,
    inputSchema: r.input_schema,
    outputSchema: r.output_schema,
    annotations: r.annotations,
    definitionHash: r.definition_hash,
    status: r.status,
    enabled: r.enabled,
    firstSeenAt: r.first_seen_at.toISOString(),
    lastSeenAt: r.last_seen_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}
