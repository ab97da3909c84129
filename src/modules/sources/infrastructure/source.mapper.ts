import type { SecretCipher } from '../../../shared/crypto/secret-cipher.js';
import { Source, SourceProps } from '../domain/source.js';
import { policiesOf, type StdioLifecycle, type TransportKind } from '../domain/source-settings.js';
import { SourceOrmEntity } from './source.orm-entity.js';
import { storedUpstreamAuth, upstreamAuthOf } from './stored-upstream-auth.js';

/** env and headers are sealed with the source id bound in, so rows cannot swap them. */
export class SourceMapper {
  constructor(private readonly cipher: SecretCipher) {}

  toDomain(row: SourceOrmEntity): Source {
    return Source.restore({
      id: row.id,
      name: row.name,
      description: row.description,
      transport: row.transport as TransportKind,
      lifecycle: row.lifecycle as StdioLifecycle,
      pluginDir: row.pluginDir,
      manifest: row.manifest,
      command: row.command,
      commandFromManifest: row.commandFromManifest,
      args: row.args,
      cwd: row.cwd,
      sandbox: row.sandbox ?? {},
      url: row.url,
      env: row.envSealed ? this.cipher.openJson(row.envSealed, `source:${row.id}:env`) : {},
      headers: row.headersSealed ? this.cipher.openJson(row.headersSealed, `source:${row.id}:headers`) : {},
      upstreamAuth: upstreamAuthOf(row.upstreamAuth ?? null),
      discoveryPrincipal: row.discoveryPrincipal ?? null,
      ...policiesOf(row),
      enabled: row.enabled,
      health: row.health,
      lastRefreshAt: row.lastRefreshAt,
      lastSuccessAt: row.lastSuccessAt,
      lastError: row.lastError,
      consecutiveFailures: row.consecutiveFailures,
      inventoryHash: row.inventoryHash,
      upstream: row.upstream,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      deletedAt: row.deletedAt,
      version: row.version,
    });
  }

  toRow(source: Source): SourceOrmEntity {
    const p: Readonly<SourceProps> = source.snapshot();
    const row = new SourceOrmEntity();
    Object.assign(row, {
      id: p.id,
      name: p.name,
      description: p.description,
      transport: p.transport,
      lifecycle: p.lifecycle,
      pluginDir: p.pluginDir,
      manifest: p.manifest,
      command: p.command,
      commandFromManifest: p.commandFromManifest,
      args: p.args,
      cwd: p.cwd,
      sandbox: p.sandbox,
      url: p.url,
      envSealed: Object.keys(p.env).length > 0 ? this.cipher.sealJson(p.env, `source:${p.id}:env`) : null,
      headersSealed: Object.keys(p.headers).length > 0 ? this.cipher.sealJson(p.headers, `source:${p.id}:headers`) : null,
      upstreamAuth: storedUpstreamAuth(p.upstreamAuth, p),
      discoveryPrincipal: p.discoveryPrincipal,
      ...policiesOf(p),
      enabled: p.enabled,
      health: p.health,
      lastRefreshAt: p.lastRefreshAt,
      lastSuccessAt: p.lastSuccessAt,
      lastError: p.lastError,
      consecutiveFailures: p.consecutiveFailures,
      inventoryHash: p.inventoryHash,
      upstream: p.upstream,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
      deletedAt: p.deletedAt,
      version: p.version,
    });
    return row;
  }
}
