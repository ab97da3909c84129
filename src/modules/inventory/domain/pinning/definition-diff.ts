import { canonicalJson } from '../../../../shared/canonical-json.js';
import { DEFAULT_JSON_CHANGE_LIMITS, jsonChanges, type JsonChange } from './json-changes.js';
import { textDiff, type TextDiff } from './text-diff.js';

/** A tool's definition as declared: `name`, `title`, `description`, `inputSchema`, `outputSchema`, `annotations`, and whatever else it carries (`execution`, `_meta`, `icons`…). */
export type DeclaredDefinition = Record<string, unknown>;

export interface ValueChange {
  before: unknown;
  after: unknown;
}

export interface AnnotationChange {
  /** e.g. `readOnlyHint`. */
  name: string;
  /** null: not declared. */
  before: unknown;
  after: unknown;
}

export interface SchemaDiff {
  changes: JsonChange[];
  truncated: boolean;
}

/** A definition against the one approved before it, field by field; a field that did not change is left out (null). */
export interface DefinitionDiff {
  name: ValueChange | null;
  title: ValueChange | null;
  description: (TextDiff & ValueChange) | null;
  inputSchema: SchemaDiff | null;
  outputSchema: SchemaDiff | null;
  annotations: AnnotationChange[];
  /** The other fields (`execution`, `_meta`, `icons`, …), each a JSON change at `/<field>…`. */
  other: SchemaDiff | null;
}

const OWN = new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations']);

const record = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);

function schemaDiff(before: unknown, after: unknown): SchemaDiff | null {
  if (same(before, after)) return null;
  return jsonChanges(before ?? null, after ?? null, DEFAULT_JSON_CHANGE_LIMITS);
}

export function diffDefinitions(before: DeclaredDefinition, after: DeclaredDefinition): DefinitionDiff {
  const beforeDescription = typeof before.description === 'string' ? before.description : null;
  const afterDescription = typeof after.description === 'string' ? after.description : null;
  const beforeAnnotations = record(before.annotations);
  const afterAnnotations = record(after.annotations);
  const annotationNames = [...new Set([...Object.keys(beforeAnnotations), ...Object.keys(afterAnnotations)])];
  const extra = (d: DeclaredDefinition) => Object.fromEntries(Object.entries(d).filter(([key, value]) => !OWN.has(key) && value !== undefined));
  return {
    name: same(before.name, after.name) ? null : { before: before.name ?? null, after: after.name ?? null },
    title: same(before.title, after.title) ? null : { before: before.title ?? null, after: after.title ?? null },
    description: beforeDescription === afterDescription ? null : { before: beforeDescription, after: afterDescription, ...textDiff(beforeDescription ?? '', afterDescription ?? '') },
    inputSchema: schemaDiff(before.inputSchema, after.inputSchema),
    outputSchema: schemaDiff(before.outputSchema, after.outputSchema),
    annotations: annotationNames
      .filter((name) => !same(beforeAnnotations[name], afterAnnotations[name]))
      .map((name) => ({ name, before: beforeAnnotations[name] ?? null, after: afterAnnotations[name] ?? null })),
    other: schemaDiff(extra(before), extra(after)),
  };
}
