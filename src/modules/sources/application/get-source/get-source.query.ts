import { Query } from '@nestjs/cqrs';
import type { SourceView } from '../source-view.js';

export class GetSourceQuery extends Query<SourceView> {
  constructor(readonly idOrName: string) {
    super();
  }
}
