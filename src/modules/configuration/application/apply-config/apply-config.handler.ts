import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError, ValidationFailed } from '../../../../shared/domain-error.js';
import { Clock, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { CreateApiKeyCommand } from '../../../access/application/create-api-key/create-api-key.command.js';
import { RevokeApiKeyCommand } from '../../../access/application/revoke-api-key/revoke-api-key.command.js';
import { UpdateApiKeyCommand } from '../../../access/application/update-api-key/update-api-key.command.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { RegisterSourceCommand } from '../../../sources/application/register-source/register-source.command.js';
import { RemoveSourceCommand } from '../../../sources/application/remove-source/remove-source.command.js';
import { UpdateSourceCommand } from '../../../sources/application/update-source/update-source.command.js';
import { ConfigApplyLock } from '../../domain/cluster-lock.js';
import { type ConfigApplyResult, summarize } from '../../domain/config-plan.js';
import { ApplyConfigCommand } from './apply-config.command.js';
import { ConfigPlanner, type PlanStep } from './config-planner.js';
import { KeyPlanner, type KeyStep } from './key-planner.js';

/**
 * Brings the live sources (and, when the file has `keys:`, the active API keys) to what a file
 * declares. Everything declared is checked first and nothing changes unless all of it passes;
 * then each change runs as the same command the REST API runs (same checks, audit events and
 * discovery): sources first, then keys. Applying what is already there changes nothing and
 * writes nothing.
 */
@CommandHandler(ApplyConfigCommand)
export class ApplyConfigHandler implements ICommandHandler<ApplyConfigCommand, ConfigApplyResult> {
  constructor(
    @Inject(ConfigPlanner) private readonly planner: ConfigPlanner,
    @Inject(KeyPlanner) private readonly keyPlanner: KeyPlanner,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(ConfigApplyLock) private readonly lock: ConfigApplyLock,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
  ) {}

  execute({ sources, documentProblems, options, actor, keys, mayManageKeys }: ApplyConfigCommand): Promise<ConfigApplyResult> {
    if (keys !== undefined && !mayManageKeys) {
      throw new DomainError('forbidden', 'FORBIDDEN', 'The file declares keys: applying it needs the keys:manage permission (the admin role).', [
        { path: 'keys', message: 'needs keys:manage; leave `keys:` out to apply the sources alone' },
      ]);
    }
    return this.lock.run(async () => {
      const plan = await this.planner.plan(sources, options.prune);
      const keyPlan = await this.keyPlanner.plan(keys, options.prune, this.clock.now(), actor);
      const problems = [...documentProblems, ...plan.problems, ...keyPlan.problems];
      if (problems.length > 0) throw new ValidationFailed(problems, 'The configuration is invalid; nothing was applied.');
      const changes = [...plan.changes, ...keyPlan.changes];
      const result: ConfigApplyResult = { dryRun: options.dryRun, prune: options.prune, changes, summary: summarize(changes) };
      if (options.dryRun || plan.steps.length + keyPlan.steps.length === 0) return result;

      for (const step of plan.steps) await this.run(step, actor, options.waitForDiscovery);
      for (const step of keyPlan.steps) await this.runKey(step, actor);
      await this.uow.run(() =>
        this.audit.record({
          actor,
          action: 'config.applied',
          targetType: 'config',
          targetId: null,
          targetName: null,
          details: { summary: result.summary, prune: options.prune, changes: changes.filter((c) => c.action !== 'unchanged') },
        }),
      );
      return result;
    });
  }

  private async run(step: PlanStep, actor: string, wait: boolean): Promise<void> {
    switch (step.action) {
      case 'create':
        await this.commands.execute(new RegisterSourceCommand(step.spec, [], actor, wait));
        return;
      case 'update':
        await this.commands.execute(new UpdateSourceCommand(step.name, step.changes, [], actor, wait));
        return;
      case 'delete':
        await this.commands.execute(new RemoveSourceCommand(step.name, actor));
        return;
    }
  }

  private async runKey(step: KeyStep, actor: string): Promise<void> {
    switch (step.action) {
      case 'create':
        await this.commands.execute(new CreateApiKeyCommand(step.spec, actor, step.presetKey));
        return;
      case 'update':
        await this.commands.execute(new UpdateApiKeyCommand(step.id, step.spec, actor, step.presetKey));
        return;
      case 'delete':
        await this.commands.execute(new RevokeApiKeyCommand(step.id, actor));
        return;
    }
  }
}
