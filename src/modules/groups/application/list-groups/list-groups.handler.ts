import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { decodeCursor, encodeCursor } from '../../../../shared/http/cursor.js';
import { GroupRepository } from '../../domain/group.js';
import { viewOf } from '../group-view.js';
import { ListGroupsQuery, type GroupPage } from './list-groups.query.js';

@QueryHandler(ListGroupsQuery)
export class ListGroupsHandler implements IQueryHandler<ListGroupsQuery, GroupPage> {
  constructor(@Inject(GroupRepository) private readonly groups: GroupRepository) {}

  async execute({ cursor, limit }: ListGroupsQuery): Promise<GroupPage> {
    const after = decodeCursor<{ n: string }>(cursor, ['n']);
    const rows = await this.groups.list(after?.n, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { items: page.map(viewOf), nextCursor: rows.length > limit && last ? encodeCursor({ n: last.name }) : null };
  }
}
