import { Module } from '@nestjs/common';
import { AuditEventOrmEntity } from './infrastructure/audit-event.orm-entity.js';
import { SecretCipher } from '../../shared/crypto/secret-cipher.js';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { Clock, IdGenerator } from '../../shared/unit-of-work.js';
import { AuditReads } from './application/audit-reads.js';
import { ListAuditEventsHandler } from './application/list-audit-events/list-audit-events.handler.js';
import { VerifyAuditChainHandler } from './application/verify-audit-chain/verify-audit-chain.handler.js';
import { AuditSigner } from './domain/audit-chain.js';
import { AuditLog } from './domain/audit-event.js';
import { AuditChainSealer } from './infrastructure/audit-chain-sealer.js';
import { Ed25519AuditSigner } from './infrastructure/ed25519-audit-signer.js';
import { TypeormAuditLog } from './infrastructure/typeorm-audit-log.js';
import { TypeormAuditReads } from './infrastructure/typeorm-audit-reads.js';
import { AuditEventsController } from './interface/audit-events.controller.js';

/** The admin trail: who changed what, each event signed into a hash chain, written in the changing command's transaction. */
@Module({
  controllers: [AuditEventsController],
  providers: [
    // Signs the audit chain with a key derived from the encryption key: every replica has it, the database never does.
    { provide: AuditSigner, useFactory: (cipher: SecretCipher) => new Ed25519AuditSigner(cipher.deriveKey('audit-signing')), inject: [SecretCipher] },
    {
      provide: TypeormAuditLog,
      useFactory: (uow: TypeormUnitOfWork, clock: Clock, ids: IdGenerator, signer: AuditSigner) => new TypeormAuditLog(uow, clock, ids, signer),
      inject: [TypeormUnitOfWork, Clock, IdGenerator, AuditSigner],
    },
    { provide: AuditLog, useExisting: TypeormAuditLog },
    { provide: AuditReads, useFactory: (uow: TypeormUnitOfWork) => new TypeormAuditReads(uow), inject: [TypeormUnitOfWork] },
    AuditChainSealer,
    VerifyAuditChainHandler,
    ListAuditEventsHandler,
  ],
  exports: [AuditLog, AuditSigner],
})
export class AuditModule {
  /** The tables this module maps (the database opens with every module's). */
  static readonly entities = [AuditEventOrmEntity];
}
