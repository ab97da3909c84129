import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { pageByName } from '../../../../shared/http/cursor.js';
import { GroupRepository } from '../../domain/group.js';
import { viewOf } from '../group-view.js';
import { ListGroupsQuery, type GroupPage } from './list-groups.query.js';

@QueryHandler(ListGroupsQuery)
export class ListGroupsHandler implements IQueryHandler<ListGroupsQuery, GroupPage> {
  constructor(@Inject(GroupRepository) private readonly groups: GroupRepository) {}

  execute({ cursor, limit }: ListGroupsQuery): Promise<GroupPage> {
    return pageByName(cursor, limit, (after, count) => this.groups.list(after, count), viewOf);
  }
}
