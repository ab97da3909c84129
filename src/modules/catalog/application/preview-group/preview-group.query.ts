import { Query } from '@nestjs/cqrs';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import type { CatalogTool } from '../../domain/catalog.js';

/** One tool of a previewed group: the admin view as the group would serve it, with what its calls would get. */
export type PreviewedTool = CatalogTool & { servedName: string; locked: Record<string, unknown>; defaults: Record<string, unknown> };

export interface GroupPreview {
  /** In served-name order. */
  items: PreviewedTool[];
}

/** PreviewGroup: the tools a group not saved would serve over the current catalog; persists nothing. */
export class PreviewGroupQuery extends Query<GroupPreview> {
  constructor(
    /** The group as `POST /api/v1/groups` takes it (any JSON object). */
    readonly input: Record<string, unknown>,
    /** Problems the request's shape check found already. */
    readonly shapeProblems: readonly ProblemDetail[] = [],
  ) {
    super();
  }
}
