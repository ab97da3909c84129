import { DiscoveryModule } from '@nestjs/core';
import { UpstreamCredentials } from './application/upstream-credentials.js';
import { UserSecretCredentials } from './application/user-secret-credentials.js';
import { CredentialArrivals, RefreshOnUserSecretStored } from './application/refresh-inventory/credential-arrivals.js';
import { GetSourceUserSecretsHandler } from './application/get-source-user-secrets/get-source-user-secrets.handler.js';
import { Module } from '@nestjs/common';
import { SourceOrmEntity } from './infrastructure/source.orm-entity.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { ProcessHostEnvironment } from '../../config/host-environment.js';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { AuditModule } from '../audit/audit.module.js';
import { InventoryModule } from '../inventory/inventory.module.js';
import { SecretCipher } from '../../shared/crypto/secret-cipher.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { CircuitBreakers } from './application/circuit-breakers.js';
import { UpstreamTargets } from './application/upstream-targets.js';
import { GetSourceHandler } from './application/get-source/get-source.handler.js';
import { GetSourceUpstreamHandler } from './application/get-source-upstream/get-source-upstream.handler.js';
import { ListSourcesHandler } from './application/list-sources/list-sources.handler.js';
import { AnnouncedChangeRefresher } from './application/refresh-inventory/announced-change-refresher.js';
import { ManifestReread } from './application/refresh-inventory/manifest-reread.js';
import { RefreshCoordinator } from './application/refresh-inventory/refresh-coordinator.js';
import { RefreshInventoryHandler } from './application/refresh-inventory/refresh-inventory.handler.js';
import { RefreshScheduler } from './application/refresh-inventory/refresh-scheduler.js';
import { RegisterSourceHandler } from './application/register-source/register-source.handler.js';
import { RemoveSourceHandler } from './application/remove-source/remove-source.handler.js';
import { SourceSpecChecker } from './application/source-spec-checker.js';
import { SourceViews } from './application/source-view.js';
import { UpdateSourceHandler } from './application/update-source/update-source.handler.js';
import { UpstreamTargetResolver } from './application/upstream-target-resolver.js';
import { ValidateSourceHandler } from './application/validate-source/validate-source.handler.js';
import { hostPolicy } from '../../shared/host-policy.js';
import { envReferencePolicy } from '../../config/env-reference-policy.js';
import { CommandLocator, HostEnvironment, ManifestLoader, RemoteHostCheck } from './domain/ports.js';
import { DnsRemoteHostCheck } from './infrastructure/dns-remote-host-check.js';
import { SourceRepository } from './domain/source.repository.js';
import { FilesystemCommandLocator } from './infrastructure/filesystem-command-locator.js';
import { ManifestReader } from './infrastructure/manifest/manifest-reader.js';
import { SourceMapper } from './infrastructure/source.mapper.js';
import { TypeormSourceRepository } from './infrastructure/typeorm-source.repository.js';
import { TypeormSourceViews } from './infrastructure/typeorm-source-views.js';
import { SourcesController } from './interface/sources.controller.js';

@Module({
  imports: [AuditModule, SecretsModule, InventoryModule, DiscoveryModule],
  controllers: [SourcesController],
  providers: [
    {
      provide: SourceRepository,
      useFactory: (uow: TypeormUnitOfWork, cipher: SecretCipher) => new TypeormSourceRepository(uow, new SourceMapper(cipher)),
      inject: [TypeormUnitOfWork, SecretCipher],
    },
    { provide: SourceViews, useFactory: (uow: TypeormUnitOfWork, cipher: SecretCipher) => new TypeormSourceViews(uow, cipher), inject: [TypeormUnitOfWork, SecretCipher] },
    { provide: ManifestLoader, useFactory: () => new ManifestReader() },
    { provide: CommandLocator, useFactory: (config: AppConfig) => new FilesystemCommandLocator(config.searchPath), inject: [APP_CONFIG] },
    { provide: HostEnvironment, useFactory: (config: AppConfig) => new ProcessHostEnvironment(envReferencePolicy(config.envReferencesAllow)), inject: [APP_CONFIG] },
    { provide: RemoteHostCheck, useFactory: (config: AppConfig) => new DnsRemoteHostCheck(hostPolicy(config.sourceHosts)), inject: [APP_CONFIG] },
    CircuitBreakers,
    UpstreamTargets,
    UpstreamCredentials,
    UserSecretCredentials,
    CredentialArrivals,
    RefreshOnUserSecretStored,
    GetSourceUserSecretsHandler,
    SourceSpecChecker,
    UpstreamTargetResolver,
    ManifestReread,
    RefreshCoordinator,
    RefreshScheduler,
    AnnouncedChangeRefresher,
    RegisterSourceHandler,
    UpdateSourceHandler,
    RemoveSourceHandler,
    RefreshInventoryHandler,
    ValidateSourceHandler,
    GetSourceHandler,
    GetSourceUpstreamHandler,
    ListSourcesHandler,
  ],
  exports: [CircuitBreakers, UpstreamTargets, UpstreamCredentials, CredentialArrivals, SourceRepository, SourceSpecChecker, HostEnvironment, RemoteHostCheck],
})
export class SourcesModule {
  /** The tables this module maps (the database opens with every module's). */
  static readonly entities = [SourceOrmEntity];
}
