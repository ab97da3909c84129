import { Query } from '@nestjs/cqrs';
import type { ShownExecution } from '../execution-view.js';

export class GetExecutionQuery extends Query<ShownExecution> {
  constructor(readonly id: string) {
    super();
  }
}
