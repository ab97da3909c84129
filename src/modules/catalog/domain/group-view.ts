import { createHash } from 'node:crypto';
import { decideTool, isRestricted } from '../../access/domain/tool-scope.js';
import type { ToolScope } from '../../../shared/principal/tool-scope.js';
import type { GroupSpec } from '../../groups/domain/group.js';
import { servedTools, type ServedTool } from '../../groups/domain/served-tools.js';
import { partitionPoint } from '../../../shared/partition-point.js';
import { admits, type CatalogFilter, type CatalogTool } from './catalog.js';
import { toMcpTool, type McpTool } from './tool-formats.js';
import { ToolSearchIndex, type SearchHit, type SearchQuery } from './tool-search.js';

export type { ServedTool };

const MAX_REMEMBERED = 1_000;

/**
 * One group as one reading of the catalog serves it: its tools (of the reading's usable tools, by
 * the group's selection) under their served names, with the group's overrides applied — what
 * `/mcp/groups/{name}`, `GET /api/v1/tools?group=` and calls through the group read. Computed
 * once per reading and version of the group (CatalogSnapshot.groupView).
 */
export class GroupView {
  /** In qualified-name order, as the catalog lists. */
  readonly tools: readonly ServedTool[];
  readonly byServedName: ReadonlyMap<string, ServedTool>;
  /** Changes whenever anything a client of the group sees in a tools/list changes. */
  readonly fingerprint: string;
  private definitions?: McpTool[];
  private index?: ToolSearchIndex;
  private readonly versions = new Map<string, string>();

  /** `tools`: every live tool of the reading; `usable`: those an agent may use (the only ones served). */
  constructor(
    readonly group: Pick<GroupSpec, 'name' | 'description' | 'select' | 'include' | 'exclude' | 'overrides'>,
    tools: readonly CatalogTool[],
    usable: ReadonlySet<CatalogTool>,
  ) {
    this.tools = servedTools(group, tools, (tool) => usable.has(tool));
    this.byServedName = new Map(this.tools.map((tool) => [tool.servedName, tool]));
    this.fingerprint = this.tools.map((tool) => `${tool.servedName}\u0000${tool.declaredHash}\u0000${JSON.stringify(tool.definition)}`).join('\u0001');
  }

  /** The MCP definitions of the group's tools (of those `scope` allows) under their served names, in served-name order. */
  mcpTools(scope?: ToolScope): McpTool[] {
    this.definitions ??= [...this.tools].sort((a, b) => compare(a.servedName, b.servedName)).map((tool) => toMcpTool(tool, tool.servedName));
    if (!isRestricted(scope)) return this.definitions;
    return this.definitions.filter((definition) => allows(scope, this.byServedName.get(definition.name)!, this.group.name));
  }

  /** The tools `filter` admits, in qualified-name order, after `after` (exclusive), `limit` at most. */
  list(filter: CatalogFilter, after: string | undefined, limit: number): ServedTool[] {
    const page: ServedTool[] = [];
    const start = after === undefined ? 0 : partitionPoint(this.tools, (tool) => tool.qualifiedName > after);
    for (let i = start; i < this.tools.length && page.length < limit; i++) if (admits(filter, this.tools[i]!, this.group.name)) page.push(this.tools[i]!);
    return page;
  }

  /** The group's tools `filter` admits that the search finds, best first, matched on what the group serves (its titles and descriptions). */
  search(query: SearchQuery, filter: CatalogFilter): SearchHit[] {
    this.index ??= new ToolSearchIndex(this.tools);
    return this.index.search(query, (tool) => admits(filter, tool, this.group.name));
  }

  /** A digest of what the agent formats show of the tools `filter` admits (the ETag's version). */
  version(filter: CatalogFilter): string {
    const key = JSON.stringify(filter);
    let version = this.versions.get(key);
    if (version === undefined) {
      const hash = createHash('sha256');
      let count = 0;
      for (const tool of this.tools) {
        if (!admits(filter, tool, this.group.name)) continue;
        count++;
        hash.update(`${tool.id}|${tool.servedName}|${tool.definitionHash}|${JSON.stringify(tool.definition)}|${JSON.stringify(tool.locked)}|${JSON.stringify(tool.defaults)}\n`);
      }
      version = `${count}.${hash.digest('base64url')}`;
      if (this.versions.size >= MAX_REMEMBERED) this.versions.clear();
      this.versions.set(key, version);
    }
    return version;
  }
}

/** Whether `scope` lets its principal use `tool` through the group (a principal bound to groups: only through its own). */
function allows(scope: ToolScope, tool: CatalogTool, group: string): boolean {
  return decideTool(scope, { qualifiedName: tool.qualifiedName, sourceName: tool.source.name, group }).allowed;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
