import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../shared/unit-of-work.js';
import { CircuitBreakers } from '../circuit-breakers.js';
import { sourceNotFound } from '../source-errors.js';
import { SourceView, SourceViews } from '../source-view.js';
import { withCircuit } from '../with-circuit.js';
import { GetSourceQuery } from './get-source.query.js';

@QueryHandler(GetSourceQuery)
export class GetSourceHandler implements IQueryHandler<GetSourceQuery, SourceView> {
  constructor(
    @Inject(SourceViews) private readonly views: SourceViews,
    @Inject(CircuitBreakers) private readonly circuits: CircuitBreakers,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ idOrName }: GetSourceQuery): Promise<SourceView> {
    const view = await this.views.get(idOrName);
    if (!view) throw sourceNotFound(idOrName);
    return withCircuit(view, this.circuits, this.clock.now().getTime());
  }
}
