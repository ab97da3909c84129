import { Query } from '@nestjs/cqrs';
import type { UpstreamTarget } from '../../domain/upstream.js';

/** A live source by name, with how to reach it right now (references resolved; memory only). */
export interface SourceUpstream {
  sourceId: string;
  name: string;
  enabled: boolean;
  timeoutMs: number;
  target: UpstreamTarget;
}

/** Answers undefined when no live source has that name. */
export class GetSourceUpstreamQuery extends Query<SourceUpstream | undefined> {
  constructor(readonly name: string) {
    super();
  }
}
