import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { isRecord } from '../../../shared/is-record.js';
import type { UpstreamAuth } from '../../sources/domain/upstream-auth.js';
import { PerUserSources, type PerUserSource } from '../domain/oauth-source.js';

interface Row {
  id: string;
  name: string;
  url: string | null;
  upstream_auth: unknown;
  discovery_principal: string | null;
  never_discovered: boolean;
  tool_names?: string[] | null;
}

const COLUMNS = `s.id, s.name, s.url, s.upstream_auth, s.discovery_principal->>'id' AS discovery_principal, (s.last_success_at IS NULL) AS never_discovered`;
const PER_USER = `s.deleted_at IS NULL AND s.upstream_auth IS NOT NULL AND s.upstream_auth->>'mode' IS DISTINCT FROM 'shared'`;

/** The per-user sources, read from the sources' table (`upstream_auth`, the discovery principal in it). */
export class SqlPerUserSources extends PerUserSources {
  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
  }

  async byName(name: string): Promise<PerUserSource | undefined> {
    const rows = (await this.uow.manager().query(`SELECT ${COLUMNS} FROM sources s WHERE s.name = $1 AND ${PER_USER}`, [name])) as Row[];
    return rows[0] && sourceOf(rows[0]);
  }

  async byId(id: string): Promise<PerUserSource | undefined> {
    const rows = (await this.uow.manager().query(`SELECT ${COLUMNS} FROM sources s WHERE s.id = $1 AND ${PER_USER}`, [id])) as Row[];
    return rows[0] && sourceOf(rows[0]);
  }

  async all(): Promise<(PerUserSource & { toolNames: string[] })[]> {
    const rows = (await this.uow.manager().query(
      `SELECT ${COLUMNS}, (SELECT array_agg(t.qualified_name) FROM source_tools t WHERE t.source_id = s.id AND t.retired_at IS NULL) AS tool_names
       FROM sources s WHERE ${PER_USER} ORDER BY s.name`,
      [],
    )) as Row[];
    return rows.flatMap((row) => {
      const source = sourceOf(row);
      return source ? [{ ...source, toolNames: row.tool_names ?? [] }] : [];
    });
  }
}

function sourceOf(row: Row): PerUserSource | undefined {
  const auth = row.upstream_auth;
  if (!isRecord(auth) || typeof auth.mode !== 'string') return undefined;
  if (auth.mode === 'oauth' && !isRecord(auth.oauth)) return undefined;
  const { userSecrets: _names, ...rest } = auth;
  return { id: row.id, name: row.name, url: row.url, auth: rest as unknown as UpstreamAuth, discoveryPrincipalId: row.discovery_principal, neverDiscovered: row.never_discovered };
}
