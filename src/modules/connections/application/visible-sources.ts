import { decideSource } from '../../access/domain/tool-scope.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { DomainError } from '../../../shared/domain-error.js';
import type { PerUserSource, PerUserSources } from '../domain/oauth-source.js';

/** The per-user sources `principal` may use (its key's scope decides, as for its calls). */
export async function visiblePerUserSources(sources: PerUserSources, principal: Principal): Promise<PerUserSource[]> {
  const all = await sources.all();
  return all.filter((source) => decideSource(principal.scope, { name: source.name, toolNames: source.toolNames }).allowed);
}

/** The per-user source of this name that `principal` may use; one it may not is as unknown as a missing one. */
export async function visiblePerUserSource(sources: PerUserSources, principal: Principal, name: string): Promise<PerUserSource> {
  const source = (await visiblePerUserSources(sources, principal)).find((candidate) => candidate.name === name);
  if (!source) throw new DomainError('not_found', 'SOURCE_NOT_FOUND', `No per-user source named "${name}".`);
  return source;
}
