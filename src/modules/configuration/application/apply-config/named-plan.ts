import { type ProblemDetail, ProblemList } from '../../../../shared/domain-error.js';
import { type PlannedChange, problemOfEntry } from '../../domain/config-plan.js';

/** One entry of the file's list of a named kind: as the REST API takes it, and the problems of its shape. */
export interface DeclaredEntry<S> {
  spec: S;
  shapeProblems: ProblemDetail[];
}

/** What applying a planned change of a named kind runs: the REST API's create, update (of the fields that differ) or delete. */
export type NamedStep<S> = { action: 'create'; spec: S } | { action: 'update'; name: string; spec: S } | { action: 'delete'; name: string };

export interface NamedPlan<S> {
  changes: PlannedChange[];
  steps: NamedStep<S>[];
  problems: ProblemDetail[];
}

/** How one named kind (a tool group, an interceptor) is compared with what is stored. */
export interface NamedKindPlanning<S extends { name?: unknown }, W extends { name: string }, C> {
  readonly kind: 'group' | 'interceptor';
  /** The file's list it is declared in. */
  readonly list: 'groups' | 'interceptors';
  /** The declared spec by its module's own rule: what it is to be, or undefined (its problems in `own`). */
  check(spec: S, own: ProblemList): W | undefined | Promise<W | undefined>;
  /** The fields in which the stored one differs from the wanted one, and an update's spec of them. */
  differences(current: C, wanted: W): { fields: string[]; spec: S };
}

/**
 * Compares what a file declares of a named kind with the stored ones, matched by name: each is
 * checked (every problem under its entry), then created, updated or left alone. With prune, those the
 * file does not name are removed, but only when the file has the list at all.
 */
export async function planNamed<S extends { name?: unknown }, W extends { name: string }, C>(
  { kind, list, check, differences }: NamedKindPlanning<S, W, C>,
  declared: readonly DeclaredEntry<S>[] | undefined,
  stored: ReadonlyMap<string, C>,
  prune: boolean,
): Promise<NamedPlan<S>> {
  if (declared === undefined) return { changes: [], steps: [], problems: [] };
  const problems = new ProblemList();
  const changes: PlannedChange[] = [];
  const steps: NamedStep<S>[] = [];
  for (const [index, { spec, shapeProblems }] of declared.entries()) {
    const own = new ProblemList();
    own.addAll(shapeProblems);
    const wanted = shapeProblems.some((p) => p.path === 'body') ? undefined : await check(spec, own);
    problems.addAll(own.all.map((p) => problemOfEntry(list, index, p)));
    if (!own.isEmpty || !wanted) continue;
    const current = stored.get(wanted.name);
    if (!current) {
      changes.push({ kind, name: wanted.name, action: 'create', fields: [] });
      steps.push({ action: 'create', spec });
      continue;
    }
    const { fields, spec: update } = differences(current, wanted);
    changes.push({ kind, name: wanted.name, action: fields.length ? 'update' : 'unchanged', fields });
    if (fields.length) steps.push({ action: 'update', name: wanted.name, spec: update });
  }
  if (prune) {
    const named = new Set(declared.map(({ spec }) => spec.name));
    for (const name of stored.keys()) {
      if (named.has(name)) continue;
      changes.push({ kind, name, action: 'delete', fields: [] });
      steps.push({ action: 'delete', name });
    }
  }
  return { changes, steps, problems: [...problems.all] };
}
