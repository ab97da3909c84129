import { NamedRepository, type NamedResource } from '../named-resource.js';

/** Named resources held in memory, by name, each read or written as a copy; counts reads of the whole set. */
export class InMemoryNamedRepository<T extends NamedResource> extends NamedRepository<T> {
  readonly byName = new Map<string, T>();
  reads = 0;

  constructor(resources: T[] = []) {
    super();
    for (const resource of resources) this.byName.set(resource.name, resource);
  }

  async findByName(name: string): Promise<T | undefined> {
    const resource = this.byName.get(name);
    return resource && structuredClone(resource);
  }

  async insert(resource: T): Promise<void> {
    this.byName.set(resource.name, structuredClone(resource));
  }

  async update(resource: T): Promise<void> {
    this.byName.set(resource.name, structuredClone(resource));
  }

  async delete(id: string): Promise<void> {
    for (const [name, resource] of this.byName) if (resource.id === id) this.byName.delete(name);
  }

  async list(after: string | undefined, limit: number): Promise<T[]> {
    return [...this.byName.values()]
      .filter((resource) => after === undefined || resource.name > after)
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .slice(0, limit)
      .map((resource) => structuredClone(resource));
  }

  async all(): Promise<T[]> {
    this.reads++;
    return this.list(undefined, Number.MAX_SAFE_INTEGER);
  }
}
