import { Inject, Injectable } from '@nestjs/common';
import { GroupDefinitions } from '../../groups/application/group-definitions.js';
import { groupNotFound } from '../../groups/application/group-errors.js';
import type { GroupView } from '../domain/group-view.js';
import { CatalogSnapshots } from './catalog-snapshots.js';

/**
 * The groups as the catalog serves them: a group's definition (GroupDefinitions) over the one
 * snapshot of the catalog (CatalogSnapshots) — never a cache of its own. Read by the REST catalog's
 * `group=`, `/mcp/groups/{name}` and the routes of calls through a group.
 */
@Injectable()
export class GroupViews {
  constructor(
    @Inject(CatalogSnapshots) private readonly snapshots: CatalogSnapshots,
    @Inject(GroupDefinitions) private readonly groups: GroupDefinitions,
  ) {}

  /** The group as the current reading serves it; undefined when there is no such group. */
  async view(name: string): Promise<GroupView | undefined> {
    const group = await this.groups.get(name);
    if (!group) return undefined;
    const snapshot = this.snapshots.latest() ?? (await this.snapshots.snapshot());
    return snapshot.groupView(group);
  }

  /** A group not saved (checked already) as the current reading would serve it: the same computation as a stored group's. */
  async preview(group: GroupView['group']): Promise<GroupView> {
    const snapshot = this.snapshots.latest() ?? (await this.snapshots.snapshot());
    return snapshot.groupView(group);
  }

  /** The view, or GROUP_NOT_FOUND (404). */
  async existing(name: string): Promise<GroupView> {
    const view = await this.view(name);
    if (!view) throw groupNotFound(name);
    return view;
  }

  /**
   * Called when a group was created, changed or removed (here or in another process), once it was
   * read again; a change of the catalog's tools is CatalogSnapshots.onToolsChanged's to announce.
   */
  onGroupsChanged(listener: () => void): () => void {
    return this.groups.onChanged(listener);
  }
}
