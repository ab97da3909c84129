import { Query } from '@nestjs/cqrs';
import type { ExecutionView } from '../execution-view.js';

export class GetExecutionQuery extends Query<ExecutionView> {
  constructor(readonly id: string) {
    super();
  }
}
