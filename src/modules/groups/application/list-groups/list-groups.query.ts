import { Query } from '@nestjs/cqrs';
import type { Page } from '../../../../shared/page.js';
import type { GroupView } from '../group-view.js';

export type GroupPage = Page<GroupView>;

/** The groups by name, a page at a time. */
export class ListGroupsQuery extends Query<GroupPage> {
  constructor(
    readonly cursor: string | undefined,
    readonly limit: number,
  ) {
    super();
  }
}
