import { Inject, Injectable } from '@nestjs/common';
import { canonicalJson } from '../../../../shared/canonical-json.js';
import { type ProblemDetail, ProblemList } from '../../../../shared/domain-error.js';
import { GroupRepository, type GroupSpec } from '../../../groups/domain/group.js';
import { checkGroupSpec, GROUP_FIELDS, type GroupSpecInput } from '../../../groups/domain/group-spec.js';
import { type PlannedChange, problemOfEntry } from '../../domain/config-plan.js';

/** One entry of the file's `groups:`: a group as the REST API takes it, and the problems of its shape. */
export interface DeclaredGroup {
  spec: GroupSpecInput;
  shapeProblems: ProblemDetail[];
}

export type GroupStep = { action: 'create'; spec: GroupSpecInput } | { action: 'update'; name: string; spec: GroupSpecInput } | { action: 'delete'; name: string };

export interface GroupPlanResult {
  changes: PlannedChange[];
  steps: GroupStep[];
  problems: ProblemDetail[];
}

const NOTHING: GroupPlanResult = { changes: [], steps: [], problems: [] };

/**
 * Compares the groups a file declares with the stored ones, matched by name: each is checked by
 * the groups module's own rule (every problem under its entry), then created, updated (naming the
 * fields that differ; a field left out is its default, as on create) or left alone. With prune,
 * groups the file does not name are removed, but only when the file has a `groups:` list at all.
 */
@Injectable()
export class GroupPlanner {
  constructor(@Inject(GroupRepository) private readonly groups: GroupRepository) {}

  async plan(declared: readonly DeclaredGroup[] | undefined, prune: boolean): Promise<GroupPlanResult> {
    if (declared === undefined) return NOTHING;
    const stored = new Map((await this.groups.all()).map((group) => [group.name, group]));
    const problems = new ProblemList();
    const changes: PlannedChange[] = [];
    const steps: GroupStep[] = [];
    for (const [index, { spec, shapeProblems }] of declared.entries()) {
      const own = new ProblemList();
      own.addAll(shapeProblems);
      const wanted = shapeProblems.some((p) => p.path === 'body') ? undefined : (checkGroupSpec(spec, own) as GroupSpec);
      problems.addAll(own.all.map((p) => problemOfEntry('groups', index, p)));
      if (!own.isEmpty || !wanted) continue;
      const current = stored.get(wanted.name);
      if (!current) {
        changes.push({ kind: 'group', name: wanted.name, action: 'create', fields: [] });
        steps.push({ action: 'create', spec });
        continue;
      }
      const fields = GROUP_FIELDS.filter((field) => field !== 'name' && canonicalJson(current[field]) !== canonicalJson(wanted[field]));
      changes.push({ kind: 'group', name: wanted.name, action: fields.length ? 'update' : 'unchanged', fields });
      // The fields that differ, as declared (a field the file leaves out is its default).
      if (fields.length) steps.push({ action: 'update', name: wanted.name, spec: Object.fromEntries(fields.map((field) => [field, wanted[field]])) });
    }
    if (prune) {
      const named = new Set(declared.map(({ spec }) => spec.name));
      for (const name of stored.keys()) {
        if (named.has(name)) continue;
        changes.push({ kind: 'group', name, action: 'delete', fields: [] });
        steps.push({ action: 'delete', name });
      }
    }
    return { changes, steps, problems: [...problems.all] };
  }
}
