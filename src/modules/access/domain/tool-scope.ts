import type { ToolScope } from '../../../shared/principal/tool-scope.js';

/** What the decision needs to know of a tool. */
export interface ScopedTool {
  qualifiedName: string;
  sourceName: string;
  /** The group the tool is seen or called through; absent: outside any group. */
  group?: string;
}

/** Allowed or not, and which rule decided (for records and the explain endpoint). */
export interface ScopeDecision {
  allowed: boolean;
  rule: string;
}

/** Letters, digits and `_ . - *`: what source and tool names are made of, plus the wildcard. */
export const SCOPE_PATTERN = /^[A-Za-z0-9_.*-]{1,200}$/;
export const MAX_SCOPE_PATTERNS = 100;

export function isRestricted(scope: ToolScope | undefined): scope is ToolScope {
  return scope !== undefined && (scope.sources !== undefined || scope.tools !== undefined || scope.groups !== undefined);
}

/** The one decision, used alike for listing (catalog, tools/list, search) and calling. */
export function decideTool(scope: ToolScope | undefined, tool: ScopedTool): ScopeDecision {
  const byGroup = decideByGroup(scope, tool.group);
  if (byGroup !== undefined && !byGroup.allowed) return byGroup;
  const bySource = decideBySource(scope, tool.sourceName);
  if (bySource !== undefined) return byGroup && bySource.rule === NO_RESTRICTION ? byGroup : bySource;
  // Left undecided by the source: a restriction with allowedTools.
  const allowedTools = scope!.tools!;
  const match = allowedTools.find((pattern) => matches(pattern, tool.qualifiedName));
  if (match === undefined) return { allowed: false, rule: `allowedTools: "${tool.qualifiedName}" matches none of ${JSON.stringify(allowedTools)}` };
  return { allowed: true, rule: `allowedTools: "${tool.qualifiedName}" matches "${match}"` };
}

/** What the decision needs to know of a source: its name and the qualified names of its tools. */
export interface ScopedSource {
  name: string;
  toolNames: Iterable<string>;
}

/**
 * Whether a principal may use a source at all — reach its endpoint, its prompts and resources — by
 * the same rules as decideTool: it may when it may use at least one of the source's tools. A source
 * that `allowedSources` names (and no `allowedTools` narrows) may be used even while it lists no
 * tools, as a source of only prompts and resources does.
 */
export function decideSource(scope: ToolScope | undefined, source: ScopedSource): ScopeDecision {
  const byGroup = decideByGroup(scope, undefined);
  if (byGroup !== undefined) return byGroup;
  const bySource = decideBySource(scope, source.name);
  if (bySource !== undefined) return bySource;
  for (const qualifiedName of source.toolNames) {
    const decision = decideTool(scope, { qualifiedName, sourceName: source.name });
    if (decision.allowed) return decision;
  }
  return { allowed: false, rule: `allowedTools: no tool of "${source.name}" matches any of ${JSON.stringify(scope!.tools)}` };
}

/**
 * The steps both decisions take on the source's name: no restriction allows; `allowedSources`
 * refuses a source it does not name, and allows one it names unless `allowedTools` is there to
 * decide (undefined: it is).
 */
function decideBySource(scope: ToolScope | undefined, sourceName: string): ScopeDecision | undefined {
  if (!isRestricted(scope) || (scope.sources === undefined && scope.tools === undefined)) return { allowed: true, rule: NO_RESTRICTION };
  if (scope.sources === undefined) return undefined;
  const match = scope.sources.find((pattern) => matches(pattern, sourceName));
  if (match === undefined) return { allowed: false, rule: `allowedSources: "${sourceName}" matches none of ${JSON.stringify(scope.sources)}` };
  return scope.tools === undefined ? { allowed: true, rule: `allowedSources: "${sourceName}" matches "${match}"` } : undefined;
}

const NO_RESTRICTION = 'role: no tool restriction';

/**
 * The step on the group a tool is reached through, for a principal bound to groups: a tool outside
 * a group, or in a group the list does not name, is refused (undefined: not bound to groups).
 */
function decideByGroup(scope: ToolScope | undefined, group: string | undefined): ScopeDecision | undefined {
  const groups = scope?.groups;
  if (groups === undefined) return undefined;
  if (group === undefined) return { allowed: false, rule: `allowedGroups: only through the groups ${JSON.stringify(groups)}, not outside a group` };
  const match = groups.find((pattern) => matches(pattern, group));
  if (match === undefined) return { allowed: false, rule: `allowedGroups: group "${group}" matches none of ${JSON.stringify(groups)}` };
  return { allowed: true, rule: `allowedGroups: group "${group}" matches "${match}"` };
}

/** `*` matches any run of characters (none included); everything else only itself. */
export function matches(pattern: string, value: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === value;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (value.length < first.length + last.length || !value.startsWith(first) || !value.endsWith(last)) return false;
  let at = first.length;
  const end = value.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = value.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/** The pattern as an SQL LIKE pattern (escape `\`): `*` becomes `%`, `%` and `_` match only themselves. */
export function likePattern(pattern: string): string {
  return pattern.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll('*', '%');
}
