import type { Principal } from '../../../shared/principal/principal.js';
import { PrincipalConnections } from '../application/principal-connections.js';
import type { ConnectionNote, MissingConnections } from '../domain/connection-notes.js';

/** The sources each principal lacks a credential for (by principal id, then source id); counts the reads. */
export class InMemoryPrincipalConnections extends PrincipalConnections {
  readonly missing = new Map<string, Map<string, ConnectionNote>>();
  readonly reads: { principalId: string; sourceIds: readonly string[] }[] = [];

  lacks(principalId: string, sourceId: string, note: ConnectionNote): this {
    if (!this.missing.has(principalId)) this.missing.set(principalId, new Map());
    this.missing.get(principalId)!.set(sourceId, note);
    return this;
  }

  async missingFor(principal: Principal, sourceIds: readonly string[]): Promise<MissingConnections> {
    this.reads.push({ principalId: principal.id, sourceIds });
    const of = this.missing.get(principal.id);
    return new Map(sourceIds.flatMap((id) => (of?.has(id) ? [[id, of.get(id)!] as const] : [])));
  }
}
