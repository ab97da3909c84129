import { Inject, Injectable } from '@nestjs/common';
import { canonicalJson } from '../../../../shared/canonical-json.js';
import { InterceptorSpecChecker } from '../../../interceptors/application/interceptor-spec-checker.js';
import { InterceptorRepository, type Interceptor } from '../../../interceptors/domain/interceptor.js';
import { flatInterceptor, type InterceptorSpecInput } from '../../../interceptors/domain/interceptor-spec.js';
import { type DeclaredEntry, type NamedPlan, type NamedStep, planNamed } from './named-plan.js';

/** One entry of the file's `interceptors:`: an interceptor as the REST API takes it, and the problems of its shape. */
export type DeclaredInterceptor = DeclaredEntry<InterceptorSpecInput>;
export type InterceptorStep = NamedStep<InterceptorSpecInput>;

/**
 * Compares the interceptors a file declares with the stored ones (see planNamed). Each is checked
 * by the interceptors module's own check (a webhook's signing secret must be stored); an update
 * names the fields that differ in the flat form: a field left out is its default, as on create,
 * and an optional setting left out is removed (null).
 */
@Injectable()
export class InterceptorPlanner {
  constructor(
    @Inject(InterceptorRepository) private readonly interceptors: InterceptorRepository,
    @Inject(InterceptorSpecChecker) private readonly checker: InterceptorSpecChecker,
  ) {}

  async plan(declared: readonly DeclaredInterceptor[] | undefined, prune: boolean): Promise<NamedPlan<InterceptorSpecInput>> {
    const stored = declared === undefined ? new Map<string, Interceptor>() : new Map((await this.interceptors.all()).map((interceptor) => [interceptor.name, interceptor]));
    return planNamed(
      {
        kind: 'interceptor',
        list: 'interceptors',
        check: (spec, own) => this.checker.check(spec, own),
        differences(current, wanted) {
          const is = flatInterceptor(current);
          const want = flatInterceptor(wanted);
          const fields = [...new Set([...Object.keys(want), ...Object.keys(is)])].filter((field) => field !== 'name' && canonicalJson(is[field] ?? null) !== canonicalJson(want[field] ?? null));
          return { fields, spec: Object.fromEntries(fields.map((field) => [field, want[field] ?? null])) };
        },
      },
      declared,
      stored,
      prune,
    );
  }
}
