import { revisionView, type RevisionView } from '../../../shared/named-resource.js';
import type { Group, GroupSpec } from '../domain/group.js';

/** A group as the REST API shows it: what was declared, where agents reach it over MCP, then its version and history. */
export interface GroupView extends GroupSpec, RevisionView {
  mcpPath: string;
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
    ...revisionView(group),
  };
}
