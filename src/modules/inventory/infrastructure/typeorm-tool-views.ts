import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { decodeCursor, encodeCursor } from '../../../shared/http/cursor.js';
import { ToolFilter, ToolPage, ToolView, ToolViews } from '../application/tool-view.js';
import { TOOL_COLUMNS, TOOL_FROM, toToolView, type ToolRow } from './tool-row.js';
import { isUuid } from '../../../shared/uuid.js';


const SELECT = `SELECT ${TOOL_COLUMNS} ${TOOL_FROM} WHERE t.retired_at IS NULL AND s.deleted_at IS NULL`;

export class TypeormToolViews extends ToolViews {
  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
  }

  async get(qualifiedName: string): Promise<ToolView | undefined> {
    const rows: ToolRow[] = await this.uow.manager().query(`${SELECT} AND t.qualified_name = $1`, [qualifiedName]);
    return rows[0] ? toToolView(rows[0]) : undefined;
  }

  async list(filter: ToolFilter, cursor: string | undefined, limit: number): Promise<ToolPage> {
    const after = decodeCursor<{ q: string }>(cursor, ['q']);
    const where: string[] = [];
    const params: unknown[] = [];
    const bind = (value: unknown) => `$${params.push(value)}`;
    if (filter.source) {
      where.push(isUuid(filter.source) ? `(s.id = ${bind(filter.source)} OR s.name = ${bind(filter.source)})` : `s.name = ${bind(filter.source)}`);
    }
    const status = filter.status ?? 'active';
    if (status !== 'all') where.push(`t.status = ${bind(status)}`);
    if (filter.enabled !== undefined) where.push(`t.enabled = ${bind(filter.enabled)}`);
    if (after) where.push(`t.qualified_name > ${bind(after.q)}`);
    const sql = `${SELECT}${where.map((w) => ` AND ${w}`).join('')} ORDER BY t.qualified_name LIMIT ${bind(limit + 1)}`;
    const rows: ToolRow[] = await this.uow.manager().query(sql, params);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { items: page.map(toToolView), nextCursor: rows.length > limit && last ? encodeCursor({ q: last.qualified_name }) : null };
  }
}
