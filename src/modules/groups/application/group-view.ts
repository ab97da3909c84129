import type { Group, GroupSelector, ToolOverride } from '../domain/group.js';

/** A group as the REST API shows it. */
export interface GroupView {
  name: string;
  description: string;
  select: GroupSelector[];
  include: string[];
  exclude: string[];
  overrides: Record<string, ToolOverride>;
  /** Where agents reach it over MCP. */
  mcpPath: string;
  version: number;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  updatedBy: string;
}

export function viewOf(group: Group): GroupView {
  return {
    name: group.name,
    description: group.description,
    select: group.select,
    include: group.include,
    exclude: group.exclude,
    overrides: group.overrides,
    mcpPath: `/mcp/groups/${group.name}`,
    version: group.version,
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
    createdBy: group.createdBy,
    updatedBy: group.updatedBy,
  };
}
