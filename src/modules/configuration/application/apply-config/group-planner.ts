import { Inject, Injectable } from '@nestjs/common';
import { canonicalJson } from '../../../../shared/canonical-json.js';
import { GroupRepository, type Group, type GroupSpec } from '../../../groups/domain/group.js';
import { checkGroupSpec, GROUP_FIELDS, type GroupSpecInput } from '../../../groups/domain/group-spec.js';
import { type DeclaredEntry, type NamedKindPlanning, type NamedPlan, type NamedStep, planNamed } from './named-plan.js';

/** One entry of the file's `groups:`: a group as the REST API takes it, and the problems of its shape. */
export type DeclaredGroup = DeclaredEntry<GroupSpecInput>;
export type GroupStep = NamedStep<GroupSpecInput>;

/** Groups are checked by the groups module's own rule; an update names the fields that differ, as declared (a field left out is its default, as on create). */
const GROUPS: NamedKindPlanning<GroupSpecInput, GroupSpec, Group> = {
  kind: 'group',
  list: 'groups',
  check: (spec, own) => checkGroupSpec(spec, own) as GroupSpec,
  differences(current, wanted) {
    const fields = GROUP_FIELDS.filter((field) => field !== 'name' && canonicalJson(current[field]) !== canonicalJson(wanted[field]));
    return { fields, spec: Object.fromEntries(fields.map((field) => [field, wanted[field]])) };
  },
};

/** Compares the groups a file declares with the stored ones (see planNamed). */
@Injectable()
export class GroupPlanner {
  constructor(@Inject(GroupRepository) private readonly groups: GroupRepository) {}

  async plan(declared: readonly DeclaredGroup[] | undefined, prune: boolean): Promise<NamedPlan<GroupSpecInput>> {
    const stored = declared === undefined ? new Map<string, Group>() : new Map((await this.groups.all()).map((group) => [group.name, group]));
    return planNamed(GROUPS, declared, stored, prune);
  }
}
