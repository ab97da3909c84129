import { Inject, Injectable } from '@nestjs/common';
import { RouteCache } from '../../route-cache.js';
import type { Call } from '../call.js';

/**
 * Finds the tool the call names and its source (RouteCache: read for 2 s, dropped when the catalog
 * changes). Refuses nothing itself: an unknown tool is the intake's refusal, so that every call,
 * even one refused at once, is recorded against the tool it named when there is one.
 */
@Injectable()
export class ResolveStage {
  constructor(@Inject(RouteCache) private readonly routes: RouteCache) {}

  async run(call: Call): Promise<void> {
    call.route = await this.routes.route(call.input.qualifiedName);
  }
}
