import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ValidationFailed } from '../../../../shared/domain-error.js';
import { UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { RegisterSourceCommand } from '../../../sources/application/register-source/register-source.command.js';
import { RemoveSourceCommand } from '../../../sources/application/remove-source/remove-source.command.js';
import { UpdateSourceCommand } from '../../../sources/application/update-source/update-source.command.js';
import { ConfigApplyLock } from '../../domain/cluster-lock.js';
import { type ConfigApplyResult, summarize } from '../../domain/config-plan.js';
import { ApplyConfigCommand } from './apply-config.command.js';
import { ConfigPlanner, type PlanStep } from './config-planner.js';

/**
 * Brings the live sources to what a file declares. Every declared source is checked first and
 * nothing changes unless all of them pass; then each change runs as the same command the REST
 * API runs (same checks, audit events and discovery). Applying what is already there changes
 * nothing and writes nothing.
 */
@CommandHandler(ApplyConfigCommand)
export class ApplyConfigHandler implements ICommandHandler<ApplyConfigCommand, ConfigApplyResult> {
  constructor(
    @Inject(ConfigPlanner) private readonly planner: ConfigPlanner,
    @Inject(ConfigApplyLock) private readonly lock: ConfigApplyLock,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
  ) {}

  execute({ sources, documentProblems, options, actor }: ApplyConfigCommand): Promise<ConfigApplyResult> {
    return this.lock.run(async () => {
      const plan = await this.planner.plan(sources, options.prune);
      const problems = [...documentProblems, ...plan.problems];
      if (problems.length > 0) throw new ValidationFailed(problems, 'The configuration is invalid; nothing was applied.');
      const result: ConfigApplyResult = { dryRun: options.dryRun, prune: options.prune, changes: plan.changes, summary: summarize(plan.changes) };
      if (options.dryRun || plan.steps.length === 0) return result;

      for (const step of plan.steps) await this.run(step, actor, options.waitForDiscovery);
      await this.uow.run(() =>
        this.audit.record({
          actor,
          action: 'config.applied',
          targetType: 'config',
          targetId: null,
          targetName: null,
          details: { summary: result.summary, prune: options.prune, changes: plan.changes.filter((c) => c.action !== 'unchanged') },
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
}
