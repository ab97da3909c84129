import { InMemoryNamedRepository } from '../../../shared/testing/in-memory-named-repository.js';
import type { Group, GroupRepository } from '../domain/group.js';

/** Groups held in memory, by name (`groups`); counts reads of the whole set. */
export class InMemoryGroupRepository extends InMemoryNamedRepository<Group> implements GroupRepository {
  readonly groups = this.byName;
}
