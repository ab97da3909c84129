import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError, ValidationFailed } from '../../../../shared/domain-error.js';
import { Clock, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { CreateApiKeyCommand } from '../../../access/application/create-api-key/create-api-key.command.js';
import { RevokeApiKeyCommand } from '../../../access/application/revoke-api-key/revoke-api-key.command.js';
import { UpdateApiKeyCommand } from '../../../access/application/update-api-key/update-api-key.command.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { CreateGroupCommand } from '../../../groups/application/create-group/create-group.command.js';
import { DeleteGroupCommand } from '../../../groups/application/delete-group/delete-group.command.js';
import { UpdateGroupCommand } from '../../../groups/application/update-group/update-group.command.js';
import { CreateInterceptorCommand } from '../../../interceptors/application/create-interceptor/create-interceptor.command.js';
import { DeleteInterceptorCommand } from '../../../interceptors/application/delete-interceptor/delete-interceptor.command.js';
import { UpdateInterceptorCommand } from '../../../interceptors/application/update-interceptor/update-interceptor.command.js';
import { RegisterSourceCommand } from '../../../sources/application/register-source/register-source.command.js';
import { RemoveSourceCommand } from '../../../sources/application/remove-source/remove-source.command.js';
import { UpdateSourceCommand } from '../../../sources/application/update-source/update-source.command.js';
import { ConfigApplyLock } from '../../domain/cluster-lock.js';
import { type ConfigApplyResult, summarize } from '../../domain/config-plan.js';
import { ApplyConfigCommand } from './apply-config.command.js';
import { ConfigPlanner, type PlanStep } from './config-planner.js';
import { GroupPlanner } from './group-planner.js';
import { InterceptorPlanner } from './interceptor-planner.js';
import { KeyPlanner, type KeyStep } from './key-planner.js';
import type { NamedStep } from './named-plan.js';

/**
 * Brings the live sources (and, when the file has `groups:`, `interceptors:` or `keys:`, the tool
 * groups, the interceptors and the active API keys) to what a file declares. Everything declared is
 * checked first and nothing changes unless all of it passes; then each change runs as the same
 * command the REST API runs (same checks, audit events and discovery): sources first, then groups,
 * then interceptors, then keys. Applying what is already there changes nothing and writes nothing.
 */
@CommandHandler(ApplyConfigCommand)
export class ApplyConfigHandler implements ICommandHandler<ApplyConfigCommand, ConfigApplyResult> {
  constructor(
    @Inject(ConfigPlanner) private readonly planner: ConfigPlanner,
    @Inject(GroupPlanner) private readonly groupPlanner: GroupPlanner,
    @Inject(InterceptorPlanner) private readonly interceptorPlanner: InterceptorPlanner,
    @Inject(KeyPlanner) private readonly keyPlanner: KeyPlanner,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(ConfigApplyLock) private readonly lock: ConfigApplyLock,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
  ) {}

  execute({ sources, documentProblems, options, actor, declared: { groups, interceptors, keys }, may }: ApplyConfigCommand): Promise<ConfigApplyResult> {
    const forbidden = [
      ...(groups !== undefined && !may.groups ? [{ path: 'groups', message: 'needs groups:manage; leave `groups:` out to apply the rest' }] : []),
      ...(interceptors !== undefined && !may.interceptors ? [{ path: 'interceptors', message: 'needs interceptors:manage; leave `interceptors:` out to apply the rest' }] : []),
      ...(keys !== undefined && !may.keys ? [{ path: 'keys', message: 'needs keys:manage; leave `keys:` out to apply the rest' }] : []),
    ];
    if (forbidden.length > 0) {
      throw new DomainError('forbidden', 'FORBIDDEN', `The file declares ${forbidden.map((p) => p.path).join(' and ')}: applying it needs ${forbidden.map((p) => `${p.path}:manage`).join(' and ')} (the admin role).`, forbidden);
    }
    return this.lock.run(async () => {
      const plan = await this.planner.plan(sources, options.prune);
      const groupPlan = await this.groupPlanner.plan(groups, options.prune);
      const interceptorPlan = await this.interceptorPlanner.plan(interceptors, options.prune);
      const keyPlan = await this.keyPlanner.plan(keys, options.prune, this.clock.now(), actor);
      const problems = [...documentProblems, ...plan.problems, ...groupPlan.problems, ...interceptorPlan.problems, ...keyPlan.problems];
      if (problems.length > 0) throw new ValidationFailed(problems, 'The configuration is invalid; nothing was applied.');
      const changes = [...plan.changes, ...groupPlan.changes, ...interceptorPlan.changes, ...keyPlan.changes];
      const result: ConfigApplyResult = { dryRun: options.dryRun, prune: options.prune, changes, summary: summarize(changes) };
      if (options.dryRun || plan.steps.length + groupPlan.steps.length + interceptorPlan.steps.length + keyPlan.steps.length === 0) return result;

      const commands = [
        ...plan.steps.map((step) => commandOf.source(step, actor, options.waitForDiscovery)),
        ...groupPlan.steps.map((step) => commandOf.group(step, actor)),
        ...interceptorPlan.steps.map((step) => commandOf.interceptor(step, actor)),
        ...keyPlan.steps.map((step) => commandOf.key(step, actor)),
      ];
      for (const command of commands) await this.commands.execute(command);
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
}

/** A named kind's create, update and delete commands, as the command of each of its planned steps. */
function namedCommand<S>(
  Create: new (spec: S, actor: string) => object,
  Update: new (name: string, spec: S, actor: string) => object,
  Delete: new (name: string, actor: string) => object,
): (step: NamedStep<S>, actor: string) => object {
  return (step, actor) => (step.action === 'create' ? new Create(step.spec, actor) : step.action === 'update' ? new Update(step.name, step.spec, actor) : new Delete(step.name, actor));
}

/** The command each planned step runs: the same one the REST API runs. */
const commandOf = {
  source: (step: PlanStep, actor: string, wait: boolean) =>
    step.action === 'create'
      ? new RegisterSourceCommand(step.spec, [], actor, wait)
      : step.action === 'update'
        ? new UpdateSourceCommand(step.name, step.changes, [], actor, wait)
        : new RemoveSourceCommand(step.name, actor),
  group: namedCommand(CreateGroupCommand, UpdateGroupCommand, DeleteGroupCommand),
  interceptor: namedCommand(CreateInterceptorCommand, UpdateInterceptorCommand, DeleteInterceptorCommand),
  key: (step: KeyStep, actor: string) =>
    step.action === 'create'
      ? new CreateApiKeyCommand(step.spec, actor, step.presetKey)
      : step.action === 'update'
        ? new UpdateApiKeyCommand(step.id, step.spec, actor, step.presetKey)
        : new RevokeApiKeyCommand(step.id, actor),
};
