import { Query } from '@nestjs/cqrs';
import type { ToolFilter, ToolPage } from '../tool-view.js';

export class ListToolsQuery extends Query<ToolPage> {
  constructor(
    readonly filter: ToolFilter,
    readonly cursor: string | undefined,
    readonly limit: number,
  ) {
    super();
  }
}
