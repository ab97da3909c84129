import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { GroupRepository } from '../../domain/group.js';
import { groupNotFound } from '../group-errors.js';
import { viewOf, type GroupView } from '../group-view.js';
import { GetGroupQuery } from './get-group.query.js';

@QueryHandler(GetGroupQuery)
export class GetGroupHandler implements IQueryHandler<GetGroupQuery, GroupView> {
  constructor(@Inject(GroupRepository) private readonly groups: GroupRepository) {}

  async execute({ name }: GetGroupQuery): Promise<GroupView> {
    const group = await this.groups.findByName(name);
    if (!group) throw groupNotFound(name);
    return viewOf(group);
  }
}
