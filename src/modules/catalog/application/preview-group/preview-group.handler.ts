import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProblemList } from '../../../../shared/domain-error.js';
import type { GroupSpec } from '../../../groups/domain/group.js';
import { checkGroupSpec } from '../../../groups/domain/group-spec.js';
import { GroupViews } from '../group-views.js';
import { PreviewGroupQuery, type GroupPreview } from './preview-group.query.js';

@QueryHandler(PreviewGroupQuery)
export class PreviewGroupHandler implements IQueryHandler<PreviewGroupQuery, GroupPreview> {
  constructor(@Inject(GroupViews) private readonly groups: GroupViews) {}

  async execute({ input, shapeProblems }: PreviewGroupQuery): Promise<GroupPreview> {
    const problems = new ProblemList();
    problems.addAll(shapeProblems);
    const spec = checkGroupSpec(input, problems) as GroupSpec;
    problems.throwIfAny('The group is invalid.');
    const view = await this.groups.preview(spec);
    const items = [...view.tools]
      .sort((a, b) => (a.servedName < b.servedName ? -1 : a.servedName > b.servedName ? 1 : 0))
      .map((tool) => ({ ...tool, locked: { ...tool.locked }, defaults: { ...tool.defaults } }));
    return { items };
  }
}
