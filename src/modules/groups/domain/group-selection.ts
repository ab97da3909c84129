import { matches } from '../../access/domain/tool-scope.js';
import { HINT_NAMES, type GroupSelector, type GroupSpec, type HintName } from './group.js';

/** What the selection reads of a tool: its qualified name, its source's name and its annotations as its upstream declared them. */
export interface SelectableTool {
  qualifiedName: string;
  source: { name: string };
  annotations: Record<string, unknown> | null;
}

/** The value MCP gives a hint a tool does not declare (or declares as something other than a boolean). */
export const HINT_DEFAULTS: Readonly<Record<HintName, boolean>> = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

/** A hint of a tool: as declared when it is a boolean, else its MCP default. */
export function hintOf(tool: SelectableTool, hint: HintName): boolean {
  const value = tool.annotations?.[hint];
  return typeof value === 'boolean' ? value : HINT_DEFAULTS[hint];
}

/** Whether one selector matches: every field it gives must (a source pattern, a tool pattern, every hint asked for). */
export function selectorMatches(selector: GroupSelector, tool: SelectableTool): boolean {
  if (selector.sources && !selector.sources.some((pattern) => matches(pattern, tool.source.name))) return false;
  if (selector.tools && !selector.tools.some((pattern) => matches(pattern, tool.qualifiedName))) return false;
  if (selector.annotations) {
    for (const hint of HINT_NAMES) {
      const wanted = selector.annotations[hint];
      if (wanted !== undefined && hintOf(tool, hint) !== wanted) return false;
    }
  }
  // A selector gives at least one field (checkGroupSpec): an empty one selects nothing.
  return selector.sources !== undefined || selector.tools !== undefined || selector.annotations !== undefined;
}

/**
 * The selection rule: a tool is in a group when a selector matches it or `include` names it, and
 * `exclude` does not name it — (⋃ selectors ∪ include) − exclude. Only usable tools are ever
 * served (the catalog applies its usable rule before this one).
 */
export function isSelected(group: Pick<GroupSpec, 'select' | 'include' | 'exclude'>, tool: SelectableTool): boolean {
  if (group.exclude.includes(tool.qualifiedName)) return false;
  return group.include.includes(tool.qualifiedName) || group.select.some((selector) => selectorMatches(selector, tool));
}
