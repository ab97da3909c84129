import { Query } from '@nestjs/cqrs';

export interface SourceUserSecrets {
  /** The `${user-secret:NAME}` names the source's env and headers refer to. */
  names: string[];
  /** Each principal holding at least one of them: which it holds and which it lacks (never values). */
  items: { principalId: string; holds: string[]; missing: string[] }[];
}

/** Who can call a user-secret source with their own values, as far as stored values go. */
export class GetSourceUserSecretsQuery extends Query<SourceUserSecrets> {
  constructor(readonly idOrName: string) {
    super();
  }
}
