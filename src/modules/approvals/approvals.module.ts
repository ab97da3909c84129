import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { SecretCipher } from '../../shared/crypto/secret-cipher.js';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { AuditModule } from '../audit/audit.module.js';
import { HeldCalls } from '../execution/application/execute-tool/stages/call-stage.js';
import { ExecutionModule } from '../execution/execution.module.js';
import { SecretRepository } from '../secrets/domain/secret.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { ApprovalViews } from './application/approval-views.js';
import { DecideApprovalHandler } from './application/decide-approval/decide-approval.handler.js';
import { ApprovalSweeper, ApprovalSweepSettings } from './application/expire-approvals/approval-sweeper.js';
import { GetApprovalHandler } from './application/get-approval/get-approval.handler.js';
import { ApprovalHeldCalls } from './application/hold-call/approval-held-calls.js';
import { ListApprovalsHandler } from './application/list-approvals/list-approvals.handler.js';
import { ResumeHeldCall } from './application/resume-held-call.js';
import { ApprovalRepository } from './domain/approval.js';
import { ApprovalNotifier } from './domain/approval-notifier.port.js';
import { ApprovalOrmEntity } from './infrastructure/approval.orm-entity.js';
import { TypeormApprovalRepository } from './infrastructure/typeorm-approval.repository.js';
import { TypeormApprovalViews } from './infrastructure/typeorm-approval-views.js';
import { WebhookApprovalNotifier } from './infrastructure/webhook-approval-notifier.js';
import { ApprovalsController } from './interface/approvals.controller.js';

/**
 * Approvals: calls an approval interceptor holds until a person decides them
 * (`/api/v1/approvals`, docs/approvals.md). ApprovalHeldCalls is where ExecuteTool hands a held
 * call (its HeldCalls port); a decision, or the sweeper's expiry, runs the call again through
 * CallTasks.resume with the decision on it. Global, so that ExecuteTool (and CallTasks) find
 * HeldCalls without the execution module importing this one, which imports it.
 */
@Global()
@Module({
  imports: [AuditModule, SecretsModule, ExecutionModule],
  controllers: [ApprovalsController],
  providers: [
    {
      provide: ApprovalRepository,
      // The held inputs are sealed under a key of their own, derived from the encryption key.
      useFactory: (uow: TypeormUnitOfWork, cipher: SecretCipher) => new TypeormApprovalRepository(uow, new SecretCipher(cipher.deriveKey('approval-input'))),
      inject: [TypeormUnitOfWork, SecretCipher],
    },
    { provide: ApprovalViews, useFactory: (uow: TypeormUnitOfWork) => new TypeormApprovalViews(uow), inject: [TypeormUnitOfWork] },
    {
      provide: ApprovalNotifier,
      useFactory: (secrets: SecretRepository, config: AppConfig) => new WebhookApprovalNotifier(secrets, config.sourceHosts, config.publicUrl),
      inject: [SecretRepository, APP_CONFIG],
    },
    { provide: ApprovalSweepSettings, useFactory: (config: AppConfig): ApprovalSweepSettings => ({ intervalMs: config.approvalSweepMs }), inject: [APP_CONFIG] },
    ApprovalHeldCalls,
    { provide: HeldCalls, useExisting: ApprovalHeldCalls },
    ResumeHeldCall,
    ApprovalSweeper,
    ListApprovalsHandler,
    GetApprovalHandler,
    DecideApprovalHandler,
  ],
  exports: [HeldCalls],
})
export class ApprovalsModule {
  /** The tables this module maps (the database opens with every module's). */
  static readonly entities = [ApprovalOrmEntity];
}
