import { Query } from '@nestjs/cqrs';
import type { CatalogTool } from '../../domain/tool-definition.js';

export class GetToolQuery extends Query<CatalogTool> {
  constructor(readonly qualifiedName: string) {
    super();
  }
}
