import { Inject, Injectable } from '@nestjs/common';
import { GroupViews } from '../../../../catalog/application/group-views.js';
import { RouteCache } from '../../route-cache.js';
import type { Call } from '../call.js';

/**
 * Finds the tool the call names and its source (RouteCache: read for 2 s, dropped when the catalog
 * changes) — through a group, first the group (GroupViews: the group over the catalog's snapshot)
 * and the tool it serves under that name. Refuses nothing itself: an unknown group or tool is the
 * intake's refusal, so that every call, even one refused at once, is recorded against the tool it
 * named when there is one.
 */
@Injectable()
export class ResolveStage {
  constructor(
    @Inject(RouteCache) private readonly routes: RouteCache,
    @Inject(GroupViews) private readonly groups: GroupViews,
  ) {}

  async run(call: Call): Promise<void> {
    const { group, qualifiedName } = call.input;
    if (group === undefined) {
      call.route = await this.routes.route(qualifiedName);
      return;
    }
    call.groupView = await this.groups.view(group);
    call.served = call.groupView?.byServedName.get(qualifiedName);
    if (call.served) call.route = await this.routes.route(call.served.qualifiedName);
  }
}
