import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { createdKey, decodeCursor, pageOf } from '../../../shared/http/cursor.js';
import type { SecretCipher } from '../../../shared/crypto/secret-cipher.js';
import type { VariableDeclaration } from '../domain/manifest/env-declaration.js';
import { policiesOf, type SourceHealth } from '../domain/source-settings.js';
import { parseTemplate, originOf } from '../domain/value-template.js';
import { SourceViews, StoredSourcePage, StoredSourceView, type UpstreamAuthView, VariableView } from '../application/source-view.js';
import { SourceOrmEntity } from './source.orm-entity.js';
import { upstreamAuthOf } from './stored-upstream-auth.js';
import { maskUrlCredentials } from '../../../shared/url-credentials.js';
import { isUuid } from '../../../shared/uuid.js';


export class TypeormSourceViews extends SourceViews {
  constructor(
    private readonly uow: TypeormUnitOfWork,
    private readonly cipher: SecretCipher,
  ) {
    super();
  }

  async get(idOrName: string): Promise<StoredSourceView | undefined> {
    const qb = this.base();
    if (isUuid(idOrName)) qb.andWhere('(s.id = :id OR s.name = :name)', { id: idOrName, name: idOrName });
    else qb.andWhere('s.name = :name', { name: idOrName });
    const { entities, raw } = await qb.getRawAndEntities();
    return entities[0] ? this.toView(entities[0], Number(raw[0]?.tool_count ?? 0)) : undefined;
  }

  async list(
    filter: { enabled?: boolean; health?: SourceHealth; transport?: string; q?: string },
    cursor: string | undefined,
    limit: number,
  ): Promise<StoredSourcePage> {
    const after = decodeCursor<{ at: string; id: string }>(cursor, ['at', 'id']);
    const qb = this.base();
    if (filter.enabled !== undefined) qb.andWhere('s.enabled = :enabled', { enabled: filter.enabled });
    if (filter.health) qb.andWhere('s.health = :health', { health: filter.health });
    if (filter.transport) qb.andWhere('s.transport = :transport', { transport: filter.transport });
    if (filter.q) qb.andWhere("(s.name ILIKE :q ESCAPE '\\' OR s.description ILIKE :q ESCAPE '\\')", { q: `%${escapeLike(filter.q)}%` });
    if (after) qb.andWhere('(s.created_at, s.id) < (:at, :id)', { at: after.at, id: after.id });
    qb.orderBy('s.created_at', 'DESC').addOrderBy('s.id', 'DESC').limit(limit + 1);
    const { entities, raw } = await qb.getRawAndEntities();
    const counts = new Map(raw.map((r: { s_id: string; tool_count: string }) => [r.s_id, Number(r.tool_count)]));
    return pageOf(entities, limit, (e) => this.toView(e, counts.get(e.id) ?? 0), createdKey);
  }

  private base() {
    return this.uow
      .manager()
      .getRepository(SourceOrmEntity)
      .createQueryBuilder('s')
      .addSelect(
        "(SELECT count(*) FROM source_tools t WHERE t.source_id = s.id AND t.retired_at IS NULL AND t.status = 'active')",
        'tool_count',
      )
      .where('s.deleted_at IS NULL');
  }

  private toView(row: SourceOrmEntity, toolCount: number): StoredSourceView {
    const env = row.envSealed ? this.cipher.openJson<Record<string, string>>(row.envSealed, `source:${row.id}:env`) : {};
    const headers = row.headersSealed
      ? this.cipher.openJson<Record<string, string>>(row.headersSealed, `source:${row.id}:headers`)
      : {};
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      transport: row.transport,
      lifecycle: row.lifecycle,
      pluginDir: row.pluginDir,
      manifest: row.manifest
        ? { file: row.manifest.file, name: row.manifest.name, version: row.manifest.version, description: row.manifest.description, env: row.manifest.env }
        : null,
      command: row.command,
      args: row.args,
      cwd: row.cwd,
      sandbox: { network: row.sandbox?.network ?? true, readOnlyPaths: row.sandbox?.readOnlyPaths ?? [], writablePaths: row.sandbox?.writablePaths ?? [] },
      url: maskUrlCredentials(row.url),
      env: describeVariables(env, row.manifest?.env ?? [], false),
      headers: describeVariables(headers, row.manifest?.headers ?? [], true),
      upstreamAuth: upstreamAuthView(row),
      ...policiesOf(row),
      enabled: row.enabled,
      health: row.health,
      lastError: row.lastError,
      lastRefreshAt: row.lastRefreshAt?.toISOString() ?? null,
      lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
      consecutiveFailures: row.consecutiveFailures,
      toolCount,
      inventoryHash: row.inventoryHash,
      protocol: row.upstream ? { era: row.upstream.era, version: row.upstream.protocolVersion } : null,
      serverInfo: row.upstream?.serverInfo ?? null,
      skippedTools: row.upstream?.skippedTools ?? [],
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      version: row.version,
    };
  }
}

function describeVariables(values: Record<string, string>, declarations: VariableDeclaration[], isHeader: boolean): VariableView[] {
  const key = (name: string) => (isHeader ? name.toLowerCase() : name);
  const declared = new Map(declarations.map((d) => [key(d.name), d]));
  const views: VariableView[] = Object.entries(values).map(([name, template]) => {
    const declaration = declared.get(key(name));
    const origin = originOf(template);
    const view: VariableView = {
      name,
      origin,
      references: parseTemplate(template).references.map((r) => `${r.kind}:${r.name}`),
      declared: declaration !== undefined,
      isSecret: declaration?.isSecret ?? false,
      isRequired: declaration?.isRequired ?? false,
    };
    // Only a value the manifest itself calls non-secret is shown back; headers never are.
    if (!isHeader && origin === 'literal' && declaration && !declaration.isSecret) view.value = template;
    return view;
  });
  for (const d of declarations) {
    if (values[d.name] === undefined && !Object.keys(values).some((n) => key(n) === key(d.name)) && (d.default ?? d.value) !== undefined) {
      views.push({ name: d.name, origin: 'default', references: [], declared: true, isSecret: d.isSecret, isRequired: d.isRequired, ...(d.isSecret ? {} : { value: d.default ?? d.value }) });
    }
  }
  return views.sort((a, b) => a.name.localeCompare(b.name));
}

function upstreamAuthView(row: SourceOrmEntity): UpstreamAuthView {
  if (!row.upstreamAuth) return { mode: 'shared' };
  return { ...upstreamAuthOf(row.upstreamAuth)!, ...(row.discoveryPrincipal ? { discoveryPrincipal: row.discoveryPrincipal } : {}) };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
