import { canonicalJson } from '../../../../shared/canonical-json.js';
import type { DeclaredDefinition } from './definition-diff.js';

/**
 * What a reviewer is told first about a definition, by name:
 * - `new_tool`: nothing was approved under this name before (and it is no rename);
 * - `renamed_from:<name>`: the same definition was offered under `<name>`, gone since;
 * - `title_changed`, `description_changed`, `input_schema_changed`, `output_schema_changed`,
 *   `annotations_changed`, `other_fields_changed` (`execution`, `_meta`, `icons`…);
 * - `more_destructive`: readOnlyHint true→false, destructiveHint false→true or openWorldHint
 *   false→true (absent hints read as the MCP specification's defaults);
 * - `new_required_parameter`: the input schema requires a parameter it did not;
 * - `widened_schema`: the input schema accepts values it refused (a type, an enum value, a bound,
 *   a pattern or format, a required parameter or `additionalProperties: false` dropped or relaxed;
 *   an optional parameter added where others were refused).
 */
export type NamedChange = string;

const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);

/** MCP's defaults for absent hints: not read-only, destructive, open-world. */
function hint(definition: DeclaredDefinition, name: string, fallback: boolean): boolean {
  const value = record(definition.annotations)?.[name];
  return typeof value === 'boolean' ? value : fallback;
}

export function isMoreDestructive(before: DeclaredDefinition, after: DeclaredDefinition): boolean {
  return (
    (hint(before, 'readOnlyHint', false) && !hint(after, 'readOnlyHint', false)) ||
    (!hint(before, 'destructiveHint', true) && hint(after, 'destructiveHint', true)) ||
    (!hint(before, 'openWorldHint', true) && hint(after, 'openWorldHint', true))
  );
}

const requiredOf = (schema: Record<string, unknown> | undefined): Set<string> =>
  new Set(Array.isArray(schema?.required) ? schema.required.filter((name): name is string => typeof name === 'string') : []);

export function hasNewRequiredParameter(before: DeclaredDefinition, after: DeclaredDefinition): boolean {
  const was = requiredOf(record(before.inputSchema));
  return [...requiredOf(record(after.inputSchema))].some((name) => !was.has(name));
}

const UPPER_BOUNDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties', 'maxContains'];
const LOWER_BOUNDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties', 'minContains'];
const DROPPABLE = ['pattern', 'format', 'not', 'multipleOf', 'uniqueItems', 'propertyNames', 'contentMediaType'];
const MAX_DEPTH = 32;

const typesOf = (schema: Record<string, unknown>): Set<unknown> | undefined =>
  schema.type === undefined ? undefined : new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);

/** Whether `after` (a JSON Schema) accepts something `before` refused, as far as the keywords that constrain a value tell. */
export function isWidened(before: unknown, after: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH || same(before, after)) return false;
  if (before === false) return after !== false;
  if (after === true) return before !== true;
  const b = record(before);
  const a = record(after);
  if (!b || !a) return false;
  const bTypes = typesOf(b);
  const aTypes = typesOf(a);
  if (bTypes && (!aTypes || [...aTypes].some((t) => !bTypes.has(t) && !(t === 'number' && bTypes.has('integer'))))) return true;
  if (Array.isArray(b.enum)) {
    const allowed = new Set(b.enum.map((v) => canonicalJson(v)));
    if (Array.isArray(a.enum) ? a.enum.some((v) => !allowed.has(canonicalJson(v))) : a.const === undefined) return true;
  }
  if (b.const !== undefined && !same(b.const, a.const) && !(Array.isArray(a.enum) && a.enum.length === 1 && same(a.enum[0], b.const))) return true;
  for (const bound of UPPER_BOUNDS) {
    if (typeof b[bound] === 'number' && (typeof a[bound] !== 'number' || (a[bound] as number) > (b[bound] as number))) return true;
  }
  for (const bound of LOWER_BOUNDS) {
    if (typeof b[bound] === 'number' && (typeof a[bound] !== 'number' || (a[bound] as number) < (b[bound] as number))) return true;
  }
  if (DROPPABLE.some((keyword) => b[keyword] !== undefined && a[keyword] === undefined)) return true;
  if (b.additionalProperties === false && a.additionalProperties !== false) return true;
  if (record(b.additionalProperties) && isWidened(b.additionalProperties, a.additionalProperties ?? true, depth + 1)) return true;
  const aRequired = requiredOf(a);
  if ([...requiredOf(b)].some((name) => !aRequired.has(name))) return true;
  const bProps = record(b.properties) ?? {};
  const aProps = record(a.properties) ?? {};
  for (const [name, schema] of Object.entries(aProps)) {
    if (Object.hasOwn(bProps, name)) {
      if (isWidened(bProps[name], schema, depth + 1)) return true;
    } else if (b.additionalProperties === false && !aRequired.has(name)) return true; // a new required one is named as such
  }
  if (b.items !== undefined && isWidened(b.items, a.items ?? true, depth + 1)) return true;
  return false;
}

/** The named changes from `before` (the approved definition; null for none) to `after`. */
export function namedChanges(before: DeclaredDefinition | null, after: DeclaredDefinition, renamedFrom?: string): NamedChange[] {
  if (!before) return ['new_tool'];
  const changes: NamedChange[] = [];
  if (renamedFrom !== undefined) changes.push(`renamed_from:${renamedFrom}`);
  if (!same(before.title, after.title)) changes.push('title_changed');
  if (!same(before.description, after.description)) changes.push('description_changed');
  if (!same(before.inputSchema, after.inputSchema)) changes.push('input_schema_changed');
  if (!same(before.outputSchema, after.outputSchema)) changes.push('output_schema_changed');
  if (!same(before.annotations, after.annotations)) changes.push('annotations_changed');
  const extra = (d: DeclaredDefinition) =>
    Object.fromEntries(Object.entries(d).filter(([key]) => !['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'].includes(key)));
  if (!same(extra(before), extra(after))) changes.push('other_fields_changed');
  if (isMoreDestructive(before, after)) changes.push('more_destructive');
  if (hasNewRequiredParameter(before, after)) changes.push('new_required_parameter');
  if (isWidened(before.inputSchema, after.inputSchema)) changes.push('widened_schema');
  return changes;
}

/** The definition without its name: equal for a tool renamed and nothing else. */
export function bodyKey(definition: DeclaredDefinition): string {
  const { name: _name, ...body } = definition;
  return canonicalJson(body);
}
