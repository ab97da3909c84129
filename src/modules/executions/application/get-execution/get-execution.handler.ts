import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { TypeormUnitOfWork } from '../../../../shared/database/typeorm-unit-of-work.js';
import { ExecutionOrmEntity } from '../../infrastructure/execution.orm-entity.js';
import { executionNotFound, ExecutionView, toExecutionView } from '../execution-view.js';
import { isUuid } from '../../../../shared/uuid.js';
import { GetExecutionQuery } from './get-execution.query.js';

@QueryHandler(GetExecutionQuery)
export class GetExecutionHandler implements IQueryHandler<GetExecutionQuery, ExecutionView> {
  constructor(@Inject(TypeormUnitOfWork) private readonly uow: TypeormUnitOfWork) {}

  async execute({ id }: GetExecutionQuery): Promise<ExecutionView> {
    // Ids are uuids: anything else names no execution (404, like an unknown uuid).
    if (!isUuid(id)) throw executionNotFound(id);
    const row = await this.uow.manager().getRepository(ExecutionOrmEntity).createQueryBuilder('e').where('e.id = :id', { id }).getOne();
    if (!row) throw executionNotFound(id);
    return toExecutionView(row);
  }
}
