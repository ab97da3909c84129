import { Query } from '@nestjs/cqrs';
import type { ToolView } from '../tool-view.js';

export class GetToolQuery extends Query<ToolView> {
  constructor(readonly qualifiedName: string) {
    super();
  }
}
