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

@Module({
  imports: [AuditModule],
  controllers: [SecretsController],
  providers: [
    { provide: SecretRepository, useFactory: (uow: TypeormUnitOfWork, cipher: SecretCipher) => new TypeormSecretRepository(uow, cipher), inject: [TypeormUnitOfWork, SecretCipher] },
    PutSecretHandler,
    DeleteSecretHandler,
    ListSecretsHandler,
  ],
  exports: [SecretRepository],
})
export class SecretsModule {
  /** The tables this module maps (the database opens with every module's). */
  static readonly entities = [SecretOrmEntity];
}
