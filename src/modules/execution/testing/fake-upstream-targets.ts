import { UpstreamTargets } from '../../sources/application/upstream-targets.js';
import type { SourceRepository } from '../../sources/domain/source.repository.js';
import type { UpstreamTarget } from '../../sources/domain/upstream.js';
import type { UpstreamTargetResolver } from '../../sources/application/upstream-target-resolver.js';

/** UpstreamTargets over targets held in memory, by source id; fails while `failure` is set. */
export class FakeUpstreamTargets extends UpstreamTargets {
  readonly targets = new Map<string, UpstreamTarget>();
  failure: Error | undefined;

  constructor() {
    super(undefined as unknown as SourceRepository, undefined as unknown as UpstreamTargetResolver);
  }

  add(...targets: UpstreamTarget[]): this {
    for (const target of targets) this.targets.set(target.sourceId, target);
    return this;
  }

  override async forSource(sourceId: string): Promise<UpstreamTarget | undefined> {
    if (this.failure) throw this.failure;
    return this.targets.get(sourceId);
  }
}
