import { Command } from '@nestjs/cqrs';

/** A request to a source its principal may not use, refused before anything of the source ran. */
export interface SourceRefusal {
  principalId: string;
  sourceId: string | null;
  sourceName: string;
  /** The path the request came to (`/mcp/sources/{name}`). */
  endpoint: string;
  /** What was asked: the JSON-RPC method, or the HTTP method of a request that carries none (GET, DELETE). */
  method: string;
  /** The rule that refused (see decideSource). */
  rule: string;
  requestId?: string;
  clientAddress?: string;
}

/** Records a refusal as an audit event (`source.access-refused`); a call's refusal is its execution instead. */
export class RecordSourceRefusalCommand extends Command<void> {
  constructor(readonly refusal: SourceRefusal) {
    super();
  }
}
