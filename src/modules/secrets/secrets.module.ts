import { Module } from '@nestjs/common';
import { SecretOrmEntity } from './infrastructure/secret.orm-entity.js';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { AuditModule } from '../audit/audit.module.js';
import { DeleteSecretHandler } from './application/delete-secret/delete-secret.handler.js';
import { ListSecretsHandler } from './application/list-secrets/list-secrets.handler.js';
import { PutSecretHandler } from './application/put-secret/put-secret.handler.js';
import { SecretCipher } from '../../shared/crypto/secret-cipher.js';
import { SecretRepository } from './domain/secret.js';
import { TypeormSecretRepository } from './infrastructure/typeorm-secret.repository.js';
import { SecretsController } from './interface/secrets.controller.js';
import { UserSecretOrmEntity } from './infrastructure/user-secret.orm-entity.js';
import { UserSecrets } from './domain/user-secret.js';
import { TypeormUserSecrets } from './infrastructure/typeorm-user-secrets.js';
import { PutUserSecretHandler } from './application/put-user-secret/put-user-secret.handler.js';
import { DeleteUserSecretHandler } from './application/delete-user-secret/delete-user-secret.handler.js';
import { ListUserSecretsHandler } from './application/list-user-secrets/list-user-secrets.handler.js';
import { MeSecretsController } from './interface/me-secrets.controller.js';

@Module({
  imports: [AuditModule],
  controllers: [SecretsController, MeSecretsController],
  providers: [
    { provide: SecretRepository, useFactory: (uow: TypeormUnitOfWork, cipher: SecretCipher) => new TypeormSecretRepository(uow, cipher), inject: [TypeormUnitOfWork, SecretCipher] },
    { provide: UserSecrets, useFactory: (uow: TypeormUnitOfWork, cipher: SecretCipher) => new TypeormUserSecrets(uow, cipher), inject: [TypeormUnitOfWork, SecretCipher] },
    PutSecretHandler,
    PutUserSecretHandler,
    DeleteUserSecretHandler,
    ListUserSecretsHandler,
    DeleteSecretHandler,
    ListSecretsHandler,
  ],
  exports: [SecretRepository, UserSecrets],
})
export class SecretsModule {
  /** The tables this module maps (the database opens with every module's). */
  static readonly entities = [SecretOrmEntity, UserSecretOrmEntity];
}
