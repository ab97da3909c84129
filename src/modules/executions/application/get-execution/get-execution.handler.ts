import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isUuid } from '../../../../shared/uuid.js';
import { Clock } from '../../../../shared/unit-of-work.js';
import { ExecutionTasks } from '../../domain/execution-task.js';
import { ExecutionReads } from '../execution-reads.js';
import { executionNotFound, waitingView, type ShownExecution } from '../execution-view.js';
import { GetExecutionQuery } from './get-execution.query.js';

@QueryHandler(GetExecutionQuery)
export class GetExecutionHandler implements IQueryHandler<GetExecutionQuery, ShownExecution> {
  constructor(
    @Inject(ExecutionReads) private readonly reads: ExecutionReads,
    @Inject(ExecutionTasks) private readonly tasks: ExecutionTasks,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ id }: GetExecutionQuery): Promise<ShownExecution> {
    // Ids are uuids: anything else names no execution (404, like an unknown uuid).
    if (!isUuid(id)) throw executionNotFound(id);
    const execution = await this.reads.get(id);
    if (execution) return execution;
    // No final record yet: a call that outlived its request stands where its task says.
    const task = await this.tasks.get(id);
    if (!task) throw executionNotFound(id);
    return waitingView(task, undefined, this.clock.now());
  }
}
