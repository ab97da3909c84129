import { NamedRepository, type Revision } from '../../../shared/named-resource.js';

/**
 * A tool group: a curated set of the catalog's tools, served as an MCP server of its own
 * (`/mcp/groups/{name}`) and as a catalog view (`GET /api/v1/tools?group={name}`), its tools renamed,
 * re-described and with arguments fixed for the agents that use it. docs/groups.md states the rules.
 */

/** The four MCP annotation hints a selector can ask for. */
export const HINT_NAMES = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
export type HintName = (typeof HINT_NAMES)[number];
export type AnnotationHints = Partial<Record<HintName, boolean>>;

/** One selector: a tool matches when it matches every field given (patterns with `*`). */
export interface GroupSelector {
  /** Source name patterns. */
  sources?: string[];
  /** Qualified tool name patterns. */
  tools?: string[];
  /** Hints the tool must have, each as declared or by the MCP default. */
  annotations?: AnnotationHints;
}

/** How a group serves one of its tools. */
export interface ToolOverride {
  /** The name the group serves it under (default: its upstream name, see servedTools). */
  name?: string;
  title?: string;
  description?: string;
  /** Merged over the upstream's annotations. */
  annotations?: AnnotationHints;
  /** Values of arguments the caller may leave out: shown as `default`, no longer required. */
  defaults?: Record<string, unknown>;
  /** Values of arguments the caller may not give: removed from the schema, added to every call. */
  locked?: Record<string, unknown>;
}

/** What an administrator declares of a group. */
export interface GroupSpec {
  name: string;
  description: string;
  select: GroupSelector[];
  /** Qualified names added whatever the selectors say. */
  include: string[];
  /** Qualified names left out whatever the selectors and `include` say. */
  exclude: string[];
  /** By qualified name. */
  overrides: Record<string, ToolOverride>;
}

export interface Group extends GroupSpec, Revision {}

/** Port: stored groups. */
export abstract class GroupRepository extends NamedRepository<Group> {}
