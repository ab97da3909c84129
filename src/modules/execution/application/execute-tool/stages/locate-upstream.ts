import { Inject, Injectable } from '@nestjs/common';
import { SecretScrubber } from '../../../../../shared/secret-scrubber.js';
import { RouteCache } from '../../route-cache.js';
import type { Call } from '../call.js';
import type { StageVerdict } from './call-stage.js';
import { unknownTool } from './intake.js';

/**
 * Finds how to reach the source now — its address and its references resolved (RouteCache, for
 * 2 s) — and the scrubber of the secrets among them, which every later stage applies to what comes
 * back. Refuses TOOL_NOT_FOUND when the source is gone since its route was read. After the guard,
 * so that a refused call never resolves secrets.
 */
@Injectable()
export class LocateUpstreamStage {
  constructor(@Inject(RouteCache) private readonly routes: RouteCache) {}

  async run(call: Call): Promise<StageVerdict> {
    const target = await this.routes.target(call.route!.source.id);
    if (!target) return unknownTool(call.input.qualifiedName);
    call.target = target;
    call.scrubber = SecretScrubber.of(target.secrets);
    return undefined;
  }
}
