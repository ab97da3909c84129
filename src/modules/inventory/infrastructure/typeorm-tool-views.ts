import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { ToolViews } from '../application/tool-views.js';
import type { CatalogTool } from '../domain/tool-definition.js';
import { TOOL_COLUMNS, TOOL_FROM, toCatalogTool, type ToolRow } from './tool-row.js';

export class TypeormToolViews extends ToolViews {
  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
  }

  async get(qualifiedName: string): Promise<CatalogTool | undefined> {
    const rows: ToolRow[] = await this.uow
      .manager()
      .query(`SELECT ${TOOL_COLUMNS} ${TOOL_FROM} WHERE t.retired_at IS NULL AND s.deleted_at IS NULL AND t.qualified_name = $1`, [qualifiedName]);
    return rows[0] ? toCatalogTool(rows[0]) : undefined;
  }
}
