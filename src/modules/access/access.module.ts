import { Module } from '@nestjs/common';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { AuditModule } from '../audit/audit.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { CreateApiKeyHandler } from './application/create-api-key/create-api-key.handler.js';
import { GetApiKeyHandler } from './application/get-api-key/get-api-key.handler.js';
import { ListApiKeysHandler } from './application/list-api-keys/list-api-keys.handler.js';
import { RecordSourceRefusalHandler } from './application/record-source-refusal/record-source-refusal.handler.js';
import { RevokeApiKeyHandler } from './application/revoke-api-key/revoke-api-key.handler.js';
import { UpdateApiKeyHandler } from './application/update-api-key/update-api-key.handler.js';
import { ApiKeyRepository } from './domain/api-key.js';
import { ApiKeySecrets } from './domain/api-key-secrets.port.js';
import { ApiKeyAuthenticator } from './infrastructure/api-key-authenticator.js';
import { Sha256ApiKeySecrets } from './infrastructure/api-key-secret.js';
import { ForgetChangedKeysHandler } from './infrastructure/forget-changed-keys.handler.js';
import { TypeormApiKeyRepository } from './infrastructure/typeorm-api-key.repository.js';
import { ScopedTools } from './domain/scoped-tools.port.js';
import { SqlScopedTools } from './infrastructure/sql-scoped-tools.js';
import { ExplainAccessHandler } from './application/explain-access/explain-access.handler.js';
import { AccessController } from './interface/access.controller.js';
import { ApiKeysController } from './interface/api-keys.controller.js';
import { OIDC_VERIFIER } from './interface/auth.guard.js';
import { OidcVerifier } from './infrastructure/oidc-verifier.js';
import { ProtectedResourceController } from './interface/protected-resource.controller.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';

/** Principals, API keys and roles; the guard (AuthGuard, installed by AppModule) authenticates with ApiKeyAuthenticator. */
@Module({
  imports: [AuditModule, SecretsModule],
  controllers: [ApiKeysController, AccessController, ProtectedResourceController],
  providers: [
    { provide: ApiKeyRepository, useFactory: (uow: TypeormUnitOfWork) => new TypeormApiKeyRepository(uow), inject: [TypeormUnitOfWork] },
    { provide: ApiKeySecrets, useClass: Sha256ApiKeySecrets },
    { provide: ScopedTools, useFactory: (uow: TypeormUnitOfWork) => new SqlScopedTools(uow), inject: [TypeormUnitOfWork] },
    { provide: ApiKeyAuthenticator, useFactory: (keys: ApiKeyRepository) => new ApiKeyAuthenticator(keys), inject: [ApiKeyRepository] },
    { provide: OIDC_VERIFIER, useFactory: (config: AppConfig) => (config.oidc ? new OidcVerifier(config.oidc) : null), inject: [APP_CONFIG] },
    CreateApiKeyHandler,
    RevokeApiKeyHandler,
    UpdateApiKeyHandler,
    ListApiKeysHandler,
    GetApiKeyHandler,
    ExplainAccessHandler,
    RecordSourceRefusalHandler,
    ForgetChangedKeysHandler,
  ],
  exports: [ApiKeyAuthenticator, OIDC_VERIFIER, ApiKeyRepository, ApiKeySecrets],
})
export class AccessModule {}
