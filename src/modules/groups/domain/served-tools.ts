import type { CatalogTool } from '../../inventory/domain/tool-definition.js';
import { QUALIFIED_NAME_PATTERN } from '../../inventory/domain/qualified-name.js';
import type { GroupSpec, ToolOverride } from './group.js';
import { selectorMatches } from './group-selection.js';

/**
 * A tool as a group serves it: the catalog's tool with the group's override applied (title,
 * description, annotations, and an input schema without its locked arguments and with its defaults),
 * its definition renamed, and what a call adds to the caller's arguments. `qualifiedName`, `name`
 * and `source` stay the tool's own: calls, records and scopes name the tool, not the group's name of it.
 */
export interface ServedTool extends CatalogTool {
  /** The name the group serves it under, unique in the group. */
  servedName: string;
  /** Arguments every call gets, which a caller may not give. */
  locked: Readonly<Record<string, unknown>>;
  /** Arguments a call gets when its caller leaves them out (or sends null). */
  defaults: Readonly<Record<string, unknown>>;
}

const NOTHING: Readonly<Record<string, unknown>> = Object.freeze({});

/** A name a group may serve a tool under: valid for every LLM API, and without `__`, which every qualified name holds. */
export function isServableName(name: string): boolean {
  return QUALIFIED_NAME_PATTERN.test(name) && !name.includes('__');
}

/**
 * The tools a group serves — those of `tools` (every live tool, in the catalog's order) it selects
 * and `usable` admits (the catalog's usable rule) — each under its served name. Names are given
 * over every live tool the group selects, usable or not, so a tool disabled or deprecated for a
 * while keeps its name, and no other takes it meanwhile. In this order of precedence:
 *
 * 1. an override's `name` (unique among the group's overrides, checked when the group is written);
 * 2. else the tool's upstream name, when it is servable (isServableName) and not taken yet — tools
 *    claim it in the order they were discovered (`firstSeenAt`, then qualified name), so a tool
 *    discovered later never takes a name a tool already served holds;
 * 3. else its qualified name, which is unique and, holding `__`, can be no other tool's served name.
 */
export function servedTools(
  group: Pick<GroupSpec, 'select' | 'include' | 'exclude' | 'overrides'>,
  tools: readonly CatalogTool[],
  usable: (tool: CatalogTool) => boolean = () => true,
): ServedTool[] {
  const include = new Set(group.include);
  const exclude = new Set(group.exclude);
  const members = tools.filter(
    (tool) => !exclude.has(tool.qualifiedName) && (include.has(tool.qualifiedName) || group.select.some((selector) => selectorMatches(selector, tool))),
  );
  const overrideOf = (tool: CatalogTool): ToolOverride | undefined => (Object.hasOwn(group.overrides, tool.qualifiedName) ? group.overrides[tool.qualifiedName] : undefined);
  const names = new Map<CatalogTool, string>();
  const taken = new Set<string>();
  for (const tool of members) {
    const name = overrideOf(tool)?.name;
    if (name !== undefined) {
      names.set(tool, name);
      taken.add(name);
    }
  }
  const byDiscovery = members.filter((tool) => !names.has(tool)).sort((a, b) => compare(a.firstSeenAt, b.firstSeenAt) || compare(a.qualifiedName, b.qualifiedName));
  for (const tool of byDiscovery) {
    const name = isServableName(tool.name) && !taken.has(tool.name) ? tool.name : tool.qualifiedName;
    names.set(tool, name);
    taken.add(name);
  }
  return members.filter(usable).map((tool) => serve(tool, names.get(tool)!, overrideOf(tool)));
}

function serve(tool: CatalogTool, servedName: string, override: ToolOverride | undefined): ServedTool {
  if (!override) return { ...tool, definition: { ...tool.definition, name: servedName }, servedName, locked: NOTHING, defaults: NOTHING };
  const locked = override.locked ?? NOTHING;
  const defaults = override.defaults ?? NOTHING;
  const inputSchema = servedSchema(tool.inputSchema, locked, defaults);
  const annotations = override.annotations ? { ...tool.annotations, ...override.annotations } : tool.annotations;
  const definition: Record<string, unknown> = { ...tool.definition, name: servedName };
  if (override.title !== undefined) definition.title = override.title;
  if (override.description !== undefined) definition.description = override.description;
  if (override.annotations) definition.annotations = annotations;
  definition.inputSchema = inputSchema;
  return {
    ...tool,
    title: override.title ?? tool.title,
    description: override.description ?? tool.description,
    annotations,
    inputSchema,
    definition,
    servedName,
    locked,
    defaults,
  };
}

/** The schema a caller is served: locked arguments gone (properties and required), defaulted ones shown with their `default` and optional. */
export function servedSchema(schema: Record<string, unknown>, locked: Readonly<Record<string, unknown>>, defaults: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const lockedNames = Object.keys(locked);
  const defaultNames = Object.keys(defaults);
  if (lockedNames.length === 0 && defaultNames.length === 0) return schema;
  const served: Record<string, unknown> = { ...schema };
  const properties = schema.properties;
  if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) {
    const kept: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
      if (Object.hasOwn(locked, name)) continue;
      const value = Object.hasOwn(defaults, name) && typeof property === 'object' && property !== null ? { ...property, default: defaults[name] } : property;
      Object.defineProperty(kept, name, { value, enumerable: true, writable: true, configurable: true });
    }
    served.properties = kept;
  }
  if (Array.isArray(schema.required)) {
    served.required = (schema.required as unknown[]).filter((name) => typeof name !== 'string' || (!Object.hasOwn(locked, name) && !Object.hasOwn(defaults, name)));
  }
  return served;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
