import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { GroupRepository, type Group, type GroupSelector, type ToolOverride } from '../domain/group.js';

interface Row {
  id: string;
  name: string;
  description: string;
  selectors: GroupSelector[];
  include: string[];
  exclude: string[];
  overrides: Record<string, ToolOverride>;
  created_at: Date;
  updated_at: Date;
  created_by: string;
  updated_by: string;
  version: number;
}

/** Groups in `tool_groups`, read and written in the current unit of work. */
export class SqlGroupRepository extends GroupRepository {
  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
  }

  async findByName(name: string, options: { lock?: boolean } = {}): Promise<Group | undefined> {
    const rows: Row[] = await this.uow.manager().query(`SELECT * FROM tool_groups WHERE name = $1${options.lock ? ' FOR UPDATE' : ''}`, [name]);
    return rows[0] && toGroup(rows[0]);
  }

  async insert(group: Group): Promise<void> {
    await this.uow
      .manager()
      .query(
        `INSERT INTO tool_groups (id, name, description, selectors, include, exclude, overrides, created_at, updated_at, created_by, updated_by, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [group.id, group.name, group.description, JSON.stringify(group.select), group.include, group.exclude, JSON.stringify(group.overrides), group.createdAt, group.updatedAt, group.createdBy, group.updatedBy, group.version],
      );
  }

  async update(group: Group): Promise<void> {
    await this.uow
      .manager()
      .query(`UPDATE tool_groups SET description = $2, selectors = $3, include = $4, exclude = $5, overrides = $6, updated_at = $7, updated_by = $8, version = $9 WHERE id = $1`, [
        group.id,
        group.description,
        JSON.stringify(group.select),
        group.include,
        group.exclude,
        JSON.stringify(group.overrides),
        group.updatedAt,
        group.updatedBy,
        group.version,
      ]);
  }

  async delete(id: string): Promise<void> {
    await this.uow.manager().query(`DELETE FROM tool_groups WHERE id = $1`, [id]);
  }

  async list(after: string | undefined, limit: number): Promise<Group[]> {
    const rows: Row[] =
      after === undefined
        ? await this.uow.manager().query(`SELECT * FROM tool_groups ORDER BY name LIMIT $1`, [limit])
        : await this.uow.manager().query(`SELECT * FROM tool_groups WHERE name > $1 ORDER BY name LIMIT $2`, [after, limit]);
    return rows.map(toGroup);
  }

  async all(): Promise<Group[]> {
    const rows: Row[] = await this.uow.manager().query(`SELECT * FROM tool_groups ORDER BY name`);
    return rows.map(toGroup);
  }
}

function toGroup(row: Row): Group {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    select: row.selectors,
    include: row.include,
    exclude: row.exclude,
    overrides: row.overrides,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    version: row.version,
  };
}
