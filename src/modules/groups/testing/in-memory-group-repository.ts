import { GroupRepository, type Group } from '../domain/group.js';

/** Groups held in memory, by name; counts reads of the whole set. */
export class InMemoryGroupRepository extends GroupRepository {
  readonly groups = new Map<string, Group>();
  reads = 0;

  async findByName(name: string): Promise<Group | undefined> {
    const group = this.groups.get(name);
    return group && structuredClone(group);
  }

  async insert(group: Group): Promise<void> {
    this.groups.set(group.name, structuredClone(group));
  }

  async update(group: Group): Promise<void> {
    this.groups.set(group.name, structuredClone(group));
  }

  async delete(id: string): Promise<void> {
    for (const [name, group] of this.groups) if (group.id === id) this.groups.delete(name);
  }

  async list(after: string | undefined, limit: number): Promise<Group[]> {
    return [...this.groups.values()]
      .filter((group) => after === undefined || group.name > after)
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .slice(0, limit)
      .map((group) => structuredClone(group));
  }

  async all(): Promise<Group[]> {
    this.reads++;
    return this.list(undefined, Number.MAX_SAFE_INTEGER);
  }
}
