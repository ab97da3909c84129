import type { DataSource } from 'typeorm';
import type { Principal } from '../../../shared/principal/principal.js';
import { PrincipalConnections } from '../application/principal-connections.js';
import { NO_MISSING_CONNECTIONS, type ConnectionNote, type MissingConnections } from '../domain/connection-notes.js';
import { connectionNoteOf, type PerUserSource } from './principal-connection-notes.js';

interface Row {
  id: string;
  name: string;
  mode: PerUserSource['mode'];
  connected: boolean;
  /** null: the source names none. */
  missing_secrets: string[] | null;
  holds_any: boolean;
}

/**
 * PrincipalConnections over the tables of per-user credentials: `sources.upstream_auth`,
 * `upstream_connections` and `user_secrets` — one query per listing, whatever its length. A
 * user-secret source names the values it needs in `upstream_auth.userSecrets`; one that names
 * none counts as missing while the principal holds no value at all.
 */
export class SqlPrincipalConnections extends PrincipalConnections {
  constructor(
    private readonly dataSource: DataSource,
    private readonly publicUrl: string,
  ) {
    super();
  }

  async missingFor(principal: Principal, sourceIds: readonly string[]): Promise<MissingConnections> {
    if (sourceIds.length === 0) return NO_MISSING_CONNECTIONS;
    const rows: Row[] = await this.dataSource.query(
      `WITH held AS (SELECT name FROM user_secrets WHERE principal_id = $1)
       SELECT s.id, s.name, s.upstream_auth->>'mode' AS mode,
              EXISTS (SELECT 1 FROM upstream_connections c WHERE c.principal_id = $1 AND c.source_id::text = s.id::text) AS connected,
              CASE WHEN jsonb_typeof(s.upstream_auth->'userSecrets') = 'array'
                   THEN ARRAY(SELECT n FROM jsonb_array_elements_text(s.upstream_auth->'userSecrets') AS n WHERE n NOT IN (SELECT name FROM held))
                   END AS missing_secrets,
              EXISTS (SELECT 1 FROM held) AS holds_any
         FROM sources s
        WHERE s.id::text = ANY($2::text[]) AND s.deleted_at IS NULL
          AND s.upstream_auth->>'mode' IN ('user-secret', 'oauth', 'token-exchange')`,
      [principal.id, sourceIds],
    );
    const missing = new Map<string, ConnectionNote>();
    for (const row of rows) {
      const note = connectionNoteOf({ id: row.id, name: row.name, mode: row.mode, connected: row.connected, missingSecrets: row.missing_secrets ?? (row.holds_any ? [] : null) }, principal, this.publicUrl);
      if (note) missing.set(row.id, note);
    }
    return missing;
  }
}
