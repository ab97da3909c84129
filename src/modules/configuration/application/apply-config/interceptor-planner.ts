import { Inject, Injectable } from '@nestjs/common';
import { canonicalJson } from '../../../../shared/canonical-json.js';
import { type ProblemDetail, ProblemList } from '../../../../shared/domain-error.js';
import { InterceptorSpecChecker } from '../../../interceptors/application/interceptor-spec-checker.js';
import { InterceptorRepository } from '../../../interceptors/domain/interceptor.js';
import { flatInterceptor, type InterceptorSpecInput } from '../../../interceptors/domain/interceptor-spec.js';
import { type PlannedChange, problemOfEntry } from '../../domain/config-plan.js';

/** One entry of the file's `interceptors:`: an interceptor as the REST API takes it, and the problems of its shape. */
export interface DeclaredInterceptor {
  spec: InterceptorSpecInput;
  shapeProblems: ProblemDetail[];
}

export type InterceptorStep =
  | { action: 'create'; spec: InterceptorSpecInput }
  | { action: 'update'; name: string; spec: InterceptorSpecInput }
  | { action: 'delete'; name: string };

export interface InterceptorPlanResult {
  changes: PlannedChange[];
  steps: InterceptorStep[];
  problems: ProblemDetail[];
}

const NOTHING: InterceptorPlanResult = { changes: [], steps: [], problems: [] };

/**
 * Compares the interceptors a file declares with the stored ones, matched by name: each is checked
 * by the interceptors module's own check (every problem under its entry; a webhook's signing
 * secret must be stored), then created, updated (naming the fields that differ in the flat form; a
 * field left out is its default, as on create, and an optional setting left out is removed) or left
 * alone. With prune, interceptors the file does not name are removed, but only when the file has
 * an `interceptors:` list at all.
 */
@Injectable()
export class InterceptorPlanner {
  constructor(
    @Inject(InterceptorRepository) private readonly interceptors: InterceptorRepository,
    @Inject(InterceptorSpecChecker) private readonly checker: InterceptorSpecChecker,
  ) {}

  async plan(declared: readonly DeclaredInterceptor[] | undefined, prune: boolean): Promise<InterceptorPlanResult> {
    if (declared === undefined) return NOTHING;
    const stored = new Map((await this.interceptors.all()).map((interceptor) => [interceptor.name, interceptor]));
    const problems = new ProblemList();
    const changes: PlannedChange[] = [];
    const steps: InterceptorStep[] = [];
    for (const [index, { spec, shapeProblems }] of declared.entries()) {
      const own = new ProblemList();
      own.addAll(shapeProblems);
      const wanted = shapeProblems.some((p) => p.path === 'body') ? undefined : await this.checker.check(spec, own);
      problems.addAll(own.all.map((p) => problemOfEntry('interceptors', index, p)));
      if (!own.isEmpty || !wanted) continue;
      const current = stored.get(wanted.name);
      if (!current) {
        changes.push({ kind: 'interceptor', name: wanted.name, action: 'create', fields: [] });
        steps.push({ action: 'create', spec });
        continue;
      }
      const is = flatInterceptor(current);
      const want = flatInterceptor(wanted);
      const fields = [...new Set([...Object.keys(want), ...Object.keys(is)])].filter((field) => field !== 'name' && canonicalJson(is[field] ?? null) !== canonicalJson(want[field] ?? null));
      changes.push({ kind: 'interceptor', name: wanted.name, action: fields.length ? 'update' : 'unchanged', fields });
      // The fields that differ, as declared (or defaulted); null for a setting the file leaves out.
      if (fields.length) steps.push({ action: 'update', name: wanted.name, spec: Object.fromEntries(fields.map((field) => [field, want[field] ?? null])) });
    }
    if (prune) {
      const named = new Set(declared.map(({ spec }) => spec.name));
      for (const name of stored.keys()) {
        if (named.has(name)) continue;
        changes.push({ kind: 'interceptor', name, action: 'delete', fields: [] });
        steps.push({ action: 'delete', name });
      }
    }
    return { changes, steps, problems: [...problems.all] };
  }
}
