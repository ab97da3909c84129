import { Query } from '@nestjs/cqrs';
import type { GroupView } from '../group-view.js';

export class GetGroupQuery extends Query<GroupView> {
  constructor(readonly name: string) {
    super();
  }
}
