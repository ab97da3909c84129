import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SourceRepository } from '../../domain/source.repository.js';
import { UpstreamTargetResolver } from '../upstream-target-resolver.js';
import { GetSourceUpstreamQuery, type SourceUpstream } from './get-source-upstream.query.js';

@QueryHandler(GetSourceUpstreamQuery)
export class GetSourceUpstreamHandler implements IQueryHandler<GetSourceUpstreamQuery, SourceUpstream | undefined> {
  constructor(
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(UpstreamTargetResolver) private readonly resolver: UpstreamTargetResolver,
  ) {}

  async execute({ name }: GetSourceUpstreamQuery): Promise<SourceUpstream | undefined> {
    const source = await this.sources.findLive(name);
    // findLive also matches ids; only the name addresses a source's MCP endpoint.
    if (!source || source.name !== name) return undefined;
    const props = source.snapshot();
    return { sourceId: props.id, name: props.name, enabled: props.enabled, timeoutMs: props.timeoutMs, target: await this.resolver.resolve(props) };
  }
}
