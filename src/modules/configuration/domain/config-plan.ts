/**
 * A declared configuration compared with what Toolplane holds: per source, whether applying the
 * file creates, updates (naming the fields), leaves or (with prune) deletes it.
 */
export type ChangeAction = 'create' | 'update' | 'unchanged' | 'delete';

export interface PlannedChange {
  kind: 'source' | 'group' | 'interceptor' | 'key';
  name: string;
  action: ChangeAction;
  /** The settings an update changes; empty otherwise. */
  fields: string[];
}

export interface ConfigApplyResult {
  dryRun: boolean;
  prune: boolean;
  changes: PlannedChange[];
  summary: Record<ChangeAction, number>;
}

export function summarize(changes: readonly PlannedChange[]): Record<ChangeAction, number> {
  const summary: Record<ChangeAction, number> = { create: 0, update: 0, unchanged: 0, delete: 0 };
  for (const change of changes) summary[change.action]++;
  return summary;
}

/**
 * Where a file must not carry a value (a secret typed in place, a URL with a token in its query),
 * export writes this instead; applying it keeps the value stored now.
 */
export const STORED_VALUE = '${stored}';

/** Whether two stored values are the same setting (key order of objects does not count). */
export function sameSetting(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : inner,
  );
}

/** A problem of the file's `sources[index]` entry, its path made the file's. */
export function problemOfSource(index: number, problem: { path: string; message: string }): { path: string; message: string } {
  return problemOfEntry('sources', index, problem);
}

/** A problem of the file's `{list}[index]` entry, its path made the file's. */
export function problemOfEntry(list: 'sources' | 'groups' | 'interceptors' | 'keys', index: number, problem: { path: string; message: string }): { path: string; message: string } {
  return { path: problem.path === 'body' ? `${list}[${index}]` : `${list}[${index}].${problem.path}`, message: problem.message };
}
