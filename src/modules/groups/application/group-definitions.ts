import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { GroupsChanged } from '../../../shared/catalog-events.js';
import { GroupRepository, type Group } from '../domain/group.js';

/** How long a reading of the groups is served before it is read again (only a fallback: changes arrive as GroupsChanged, also from other processes). */
export const GROUPS_REFRESH_MS = 60_000;

/**
 * Every group, held in memory for the views of them (the catalog's group views, `/mcp/groups/{name}`,
 * the routes of calls through a group). Read again at once when a group changes, here or in another
 * process (GroupsChanged, relayed by NOTIFY), and in the background every GROUPS_REFRESH_MS.
 * A reading is immutable: a group object stands for one version of it, so views can be kept per object.
 */
@Injectable()
@EventsHandler(GroupsChanged)
export class GroupDefinitions implements IEventHandler<GroupsChanged> {
  private readonly logger = new Logger('groups');
  private current?: ReadonlyMap<string, Group>;
  private readAt = 0;
  private loading?: { promise: Promise<ReadonlyMap<string, Group>>; generation: number };
  private generation = 0;
  private readonly listeners = new Set<() => void>();

  constructor(@Inject(GroupRepository) private readonly groups: GroupRepository) {}

  /** The group named `name` as last read; undefined when there is none. */
  async get(name: string): Promise<Group | undefined> {
    return (await this.all()).get(name);
  }

  /** Every group by name; waits for a read only when there is no reading (first use, or right after a change). */
  all(): Promise<ReadonlyMap<string, Group>> {
    const current = this.current;
    if (!current) return this.load();
    if (Date.now() - this.readAt > GROUPS_REFRESH_MS) void this.load().catch((error: unknown) => this.logger.warn(`groups refresh failed: ${describe(error)}`));
    return Promise.resolve(current);
  }

  /** Called when a group was created, changed or removed (after it was read again). */
  onChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  handle(_event: GroupsChanged): void {
    this.generation++;
    this.current = undefined;
    this.load().then(
      () => this.announce(),
      (error: unknown) => this.logger.warn(`groups reload failed: ${describe(error)}`),
    );
  }

  private load(): Promise<ReadonlyMap<string, Group>> {
    if (this.loading && this.loading.generation === this.generation) return this.loading.promise;
    const generation = this.generation;
    const startedAt = Date.now();
    const promise = this.groups.all().then(
      (groups) => {
        const reading: ReadonlyMap<string, Group> = new Map(groups.map((group) => [group.name, Object.freeze(group)]));
        if (this.loading?.promise === promise) this.loading = undefined;
        if (generation === this.generation) {
          this.current = reading;
          this.readAt = startedAt;
        }
        return reading;
      },
      (error: unknown) => {
        if (this.loading?.promise === promise) this.loading = undefined;
        throw error;
      },
    );
    this.loading = { promise, generation };
    return promise;
  }

  private announce(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        this.logger.warn(`groups-changed listener failed: ${describe(error)}`);
      }
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
