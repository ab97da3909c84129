import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { ScopedTools } from '../domain/scoped-tools.port.js';
import type { ScopedTool } from '../domain/tool-scope.js';

/** Reads a live tool's qualified name and source name, as the catalog shows them. */
export class SqlScopedTools extends ScopedTools {
  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
  }

  async find(qualifiedName: string): Promise<ScopedTool | undefined> {
    const rows: { qualified_name: string; source_name: string }[] = await this.uow.manager().query(
      `SELECT t.qualified_name, s.name AS source_name
         FROM source_tools t JOIN sources s ON s.id = t.source_id
        WHERE t.qualified_name = $1 AND t.retired_at IS NULL AND s.deleted_at IS NULL`,
      [qualifiedName],
    );
    const row = rows[0];
    return row ? { qualifiedName: row.qualified_name, sourceName: row.source_name } : undefined;
  }
}
