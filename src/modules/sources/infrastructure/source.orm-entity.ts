import type { PinningMode } from '../../inventory/domain/pinning/pinning.js';
import { Column, Entity, PrimaryColumn, VersionColumn } from 'typeorm';
import type { SealedValue } from '../../../shared/crypto/secret-cipher.js';
import type { ManifestSummary, UpstreamIdentity } from '../domain/source.js';
import type { DiscoveryPrincipal } from '../domain/upstream-auth.js';
import type { StoredUpstreamAuth } from './stored-upstream-auth.js';
import type { CircuitBreakerSettings, SandboxSettings, SourceHealth } from '../domain/source-settings.js';

@Entity({ name: 'sources' })
export class SourceOrmEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('text', { nullable: true }) description!: string | null;
  @Column('text') transport!: string;
  @Column('text') lifecycle!: string;
  @Column('text', { name: 'plugin_dir', nullable: true }) pluginDir!: string | null;
  @Column('jsonb', { nullable: true }) manifest!: ManifestSummary | null;
  @Column('text', { nullable: true }) command!: string | null;
  @Column('boolean', { name: 'command_from_manifest' }) commandFromManifest!: boolean;
  @Column('jsonb') args!: string[];
  @Column('text', { nullable: true }) cwd!: string | null;
  @Column('jsonb') sandbox!: SandboxSettings;
  @Column('text', { nullable: true }) url!: string | null;
  /** env and headers are sealed as a whole: even literal values may be sensitive. */
  @Column('jsonb', { name: 'env_sealed', nullable: true }) envSealed!: SealedValue | null;
  @Column('jsonb', { name: 'headers_sealed', nullable: true }) headersSealed!: SealedValue | null;
  @Column('jsonb', { name: 'upstream_auth', nullable: true }) upstreamAuth!: StoredUpstreamAuth | null;
  @Column('jsonb', { name: 'discovery_principal', nullable: true }) discoveryPrincipal!: DiscoveryPrincipal | null;
  @Column('boolean', { name: 'read_only' }) readOnly!: boolean;
  @Column('integer', { name: 'timeout_ms' }) timeoutMs!: number;
  @Column('integer', { name: 'max_concurrency' }) maxConcurrency!: number;
  @Column('integer', { name: 'rate_limit_per_minute', nullable: true }) rateLimitPerMinute!: number | null;
  @Column('integer', { name: 'refresh_interval_seconds' }) refreshIntervalSeconds!: number;
  @Column('jsonb', { name: 'circuit_breaker' }) circuitBreaker!: CircuitBreakerSettings;
  @Column('text') pinning!: PinningMode;
  @Column('boolean') enabled!: boolean;
  @Column('text') health!: SourceHealth;
  @Column('timestamptz', { name: 'last_refresh_at', nullable: true }) lastRefreshAt!: Date | null;
  @Column('timestamptz', { name: 'last_success_at', nullable: true }) lastSuccessAt!: Date | null;
  @Column('text', { name: 'last_error', nullable: true }) lastError!: string | null;
  @Column('integer', { name: 'consecutive_failures' }) consecutiveFailures!: number;
  @Column('text', { name: 'inventory_hash', nullable: true }) inventoryHash!: string | null;
  @Column('jsonb', { nullable: true }) upstream!: UpstreamIdentity | null;
  @Column('timestamptz', { name: 'refresh_lease_until', nullable: true, select: false }) refreshLeaseUntil?: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
  @Column('timestamptz', { name: 'deleted_at', nullable: true }) deletedAt!: Date | null;
  @VersionColumn() version!: number;
}
