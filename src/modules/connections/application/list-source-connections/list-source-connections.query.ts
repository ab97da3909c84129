import { Query } from '@nestjs/cqrs';
import type { SourceConnectionView } from '../connection-view.js';

/** Who is connected to a source (for administrators): principals, status and scopes, never tokens. */
export class ListSourceConnectionsQuery extends Query<{ items: SourceConnectionView[] }> {
  constructor(readonly sourceName: string) {
    super();
  }
}
