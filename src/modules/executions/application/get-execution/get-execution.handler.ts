import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isUuid } from '../../../../shared/uuid.js';
import { ExecutionReads } from '../execution-reads.js';
import { executionNotFound, ExecutionView } from '../execution-view.js';
import { GetExecutionQuery } from './get-execution.query.js';

@QueryHandler(GetExecutionQuery)
export class GetExecutionHandler implements IQueryHandler<GetExecutionQuery, ExecutionView> {
  constructor(@Inject(ExecutionReads) private readonly reads: ExecutionReads) {}

  async execute({ id }: GetExecutionQuery): Promise<ExecutionView> {
    // Ids are uuids: anything else names no execution (404, like an unknown uuid).
    if (!isUuid(id)) throw executionNotFound(id);
    const execution = await this.reads.get(id);
    if (!execution) throw executionNotFound(id);
    return execution;
  }
}
