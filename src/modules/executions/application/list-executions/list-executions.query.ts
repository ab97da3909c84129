import { Query } from '@nestjs/cqrs';
import type { ExecutionStatus } from '../../domain/execution.js';
import type { WaitingStatus } from '../../domain/execution-task.js';
import type { ExecutionPage } from '../execution-view.js';

export interface ExecutionFilter {
  /** Qualified tool name. */
  tool?: string;
  /** Source id or name. */
  source?: string;
  /** The tool group the calls came through. */
  group?: string;
  /** Any of these statuses (the waiting ones: calls that have no final record yet). */
  statuses?: (ExecutionStatus | WaitingStatus)[];
  /** Principal id of the caller. */
  caller?: string;
  /** Started at or after. */
  since?: Date;
  /** Started before. */
  until?: Date;
}

export class ListExecutionsQuery extends Query<ExecutionPage> {
  constructor(
    readonly filter: ExecutionFilter,
    readonly cursor: string | undefined,
    readonly limit: number,
  ) {
    super();
  }
}
