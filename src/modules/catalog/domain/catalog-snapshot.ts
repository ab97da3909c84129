import { createHash } from 'node:crypto';
import { decideSource, decideTool, isRestricted, type ScopeDecision } from '../../access/domain/tool-scope.js';
import type { ToolScope } from '../../../shared/principal/tool-scope.js';
import { admits, isAgentView, type CatalogFilter, type CatalogTool } from './catalog.js';
import { toMcpTool, type McpTool } from './tool-formats.js';
import { ToolSearchIndex, type SearchHit, type SearchQuery } from './tool-search.js';
import { isUsable } from './tool-usability.js';
import { partitionPoint } from '../../../shared/partition-point.js';
import { GroupView } from './group-view.js';

/** A live source as the catalog and the calls to its tools need it. */
export interface CatalogSourceSettings {
  id: string;
  name: string;
  enabled: boolean;
  readOnly: boolean;
  timeoutMs: number;
  maxConcurrency: number;
  /** Calls per minute to each of its tools; null: no limit. */
  rateLimitPerMinute: number | null;
  circuitBreaker: { failureThreshold: number; resetTimeoutMs: number };
}

/** What the MCP endpoints need to know about a source: its settings, and its tools by upstream name. */
export interface CatalogSource extends CatalogSourceSettings {
  /** Every active tool of the source (enabled or not), by its upstream name. */
  byName: Map<string, CatalogTool>;
  /** The tools a caller may use, in the order the source's upstream lists them. */
  usable: CatalogTool[];
}

/** Which columns a version covers: `agent` what the agent formats show, `admin` also what only the full view shows. */
export type CatalogView = 'agent' | 'admin';

const MAX_REMEMBERED = 10_000;
const MAX_REMEMBERED_SEARCHES = 64;

/**
 * One immutable reading of the catalog: every live tool (active or deprecated, enabled or not, of
 * any live source) with its source's settings, shared by every reader until the catalog changes —
 * the MCP endpoints, the REST catalog, its ETags and the routes of calls. What readers ask of it
 * (MCP definitions, search indexes, versions, scope decisions) is computed once per reading.
 */
export class CatalogSnapshot {
  /** Every live tool, in qualified-name order. */
  readonly tools: readonly CatalogTool[];
  /** Tools a caller may use (isUsable), in qualified-name order. */
  readonly usable: readonly CatalogTool[];
  readonly byQualifiedName: ReadonlyMap<string, CatalogTool>;
  /** Live sources by name. */
  readonly sources: ReadonlyMap<string, CatalogSource>;
  readonly sourcesById: ReadonlyMap<string, CatalogSource>;
  /** Changes whenever anything a client sees in a tools/list changes. */
  readonly fingerprint: string;
  private qualifiedDefinitions?: McpTool[];
  private readonly sourceDefinitions = new Map<string, McpTool[]>();
  /** Decisions already made on this reading, by source and scope: a restricted caller may ask per request, and a refusal reads every tool of the source. */
  private readonly sourceDecisions = new Map<string, ScopeDecision>();
  private index?: ToolSearchIndex;
  private readonly searches = new Map<string, SearchHit[]>();
  private readonly versions = new Map<string, string>();
  /** Views by the group object they were computed for: a group changed is a new object. */
  private readonly groupViews = new WeakMap<object, GroupView>();
  private usableSet?: ReadonlySet<CatalogTool>;

  constructor(tools: readonly CatalogTool[], sources: readonly CatalogSourceSettings[]) {
    const byName = new Map<string, CatalogSource>();
    const byId = new Map<string, CatalogSource>();
    for (const settings of sources) {
      const source: CatalogSource = { ...settings, byName: new Map(), usable: [] };
      byName.set(source.name, source);
      byId.set(source.id, source);
    }
    // A tool is served with its source's settings: one read without them (its source gone meanwhile) is left out.
    this.tools = tools.filter((tool) => byId.has(tool.source.id)).sort((a, b) => compare(a.qualifiedName, b.qualifiedName));
    this.usable = this.tools.filter(isUsable);
    this.byQualifiedName = new Map(this.tools.map((tool) => [tool.qualifiedName, tool]));
    for (const tool of this.tools) {
      const source = byId.get(tool.source.id)!;
      if (tool.status === 'active') source.byName.set(tool.name, tool);
      if (isUsable(tool)) source.usable.push(tool);
    }
    for (const source of byName.values()) source.usable.sort(listedOrder);
    this.sources = byName;
    this.sourcesById = byId;
    this.fingerprint = this.usable.map((tool) => `${tool.qualifiedName}\u0000${tool.definitionHash}\u0000${tool.declaredHash}\u0000${tool.listPosition}`).join('\u0001');
  }

  /** A live tool with its source's settings, usable or not (a call to it is refused with the reason); undefined for an unknown name. */
  route(qualifiedName: string): { tool: CatalogTool; source: CatalogSourceSettings } | undefined {
    const tool = this.byQualifiedName.get(qualifiedName);
    return tool && { tool, source: this.sourcesById.get(tool.source.id)! };
  }

  /** The MCP definitions of every usable tool (of those `scope` allows), named by qualified name, in name order. */
  qualifiedTools(scope?: ToolScope): McpTool[] {
    this.qualifiedDefinitions ??= this.usable.map((tool) => toMcpTool(tool, tool.qualifiedName));
    if (!isRestricted(scope)) return this.qualifiedDefinitions;
    return this.qualifiedDefinitions.filter((_, i) => allows(scope, this.usable[i]!));
  }

  /** The usable tools `scope` allows (all without one), in qualified-name order. */
  usableFor(scope?: ToolScope): readonly CatalogTool[] {
    return isRestricted(scope) ? this.usable.filter((tool) => allows(scope, tool)) : this.usable;
  }

  /**
   * The source of `/mcp/sources/{name}` and whether `scope` lets its principal use it (decideSource,
   * over every active tool of the source, enabled or not: enabling is the tool's state, not access);
   * undefined when there is no such source.
   */
  sourceFor(sourceName: string, scope?: ToolScope): { source: CatalogSource; decision: ScopeDecision } | undefined {
    const source = this.sources.get(sourceName);
    if (!source) return undefined;
    if (!isRestricted(scope)) return { source, decision: decideSource(scope, { name: source.name, toolNames: [] }) };
    const key = `${sourceName}\u0000${JSON.stringify(scope)}`;
    let decision = this.sourceDecisions.get(key);
    if (!decision) {
      decision = decideSource(scope, { name: source.name, toolNames: qualifiedNames(source) });
      if (this.sourceDecisions.size >= MAX_REMEMBERED) this.sourceDecisions.clear();
      this.sourceDecisions.set(key, decision);
    }
    return { source, decision };
  }

  /** The MCP definitions of one source's usable tools (of those `scope` allows), named as the source names them, in the order it lists them. */
  sourceTools(sourceName: string, scope?: ToolScope): McpTool[] {
    const usable = this.sources.get(sourceName)?.usable ?? [];
    if (isRestricted(scope)) return usable.filter((tool) => allows(scope, tool)).map((tool) => toMcpTool(tool, tool.name));
    let definitions = this.sourceDefinitions.get(sourceName);
    if (!definitions) {
      definitions = usable.map((tool) => toMcpTool(tool, tool.name));
      this.sourceDefinitions.set(sourceName, definitions);
    }
    return definitions;
  }

  /** A group as this reading serves it (see GroupView), computed once per group object. */
  groupView(group: GroupView['group']): GroupView {
    let view = this.groupViews.get(group);
    if (!view) {
      this.usableSet ??= new Set(this.usable);
      view = new GroupView(group, this.tools, this.usableSet);
      this.groupViews.set(group, view);
    }
    return view;
  }

  /** The tools `filter` admits, in qualified-name order, after the name `after` (exclusive), `limit` at most. */
  list(filter: CatalogFilter, after: string | undefined, limit: number): CatalogTool[] {
    const tools = isAgentView(filter) ? this.usable : this.tools;
    const page: CatalogTool[] = [];
    for (let i = after === undefined ? 0 : firstAfter(tools, after); i < tools.length && page.length < limit; i++) {
      if (admits(filter, tools[i]!)) page.push(tools[i]!);
    }
    return page;
  }

  /** Every tool `filter` admits that the search finds, best first (the one ranking: see ToolSearchIndex). */
  search(query: SearchQuery, filter: CatalogFilter): SearchHit[] {
    let hits = this.searches.get(query.text);
    if (!hits) {
      this.index ??= new ToolSearchIndex(this.tools);
      hits = this.index.search(query);
      if (this.searches.size >= MAX_REMEMBERED_SEARCHES) this.searches.clear();
      this.searches.set(query.text, hits);
    }
    return hits.filter((hit) => admits(filter, hit.tool));
  }

  /**
   * A digest of what `view` shows of every tool `filter` admits: it changes whenever one of them is
   * added, removed or changed in what the view shows, and comes back when the content does. The
   * times of the admin view are not in a reading (a refresh that changes nothing moves them without
   * a new reading): the admin view's tags cover them page by page.
   */
  version(filter: CatalogFilter, view: CatalogView): string {
    const key = `${view}\u0000${JSON.stringify(filter)}`;
    let version = this.versions.get(key);
    if (version === undefined) {
      const hash = createHash('sha256');
      let count = 0;
      for (const tool of isAgentView(filter) ? this.usable : this.tools) {
        if (!admits(filter, tool)) continue;
        count++;
        hash.update(`${tool.id}|${tool.qualifiedName}|${tool.declaredHash}|${tool.definitionHash}|${tool.status}|${tool.reviewState}|${tool.enabled}|${tool.source.name}|${tool.source.enabled}|${tool.source.readOnly}`);
        if (view === 'admin') hash.update(`|${tool.listPosition}`);
        hash.update('\n');
      }
      version = `${count}.${hash.digest('base64url')}`;
      if (this.versions.size >= MAX_REMEMBERED) this.versions.clear();
      this.versions.set(key, version);
    }
    return version;
  }
}

function allows(scope: ToolScope, tool: CatalogTool): boolean {
  return decideTool(scope, { qualifiedName: tool.qualifiedName, sourceName: tool.source.name }).allowed;
}

/** The qualified names of a source's tools, read only as far as a decision needs them. */
function* qualifiedNames(source: CatalogSource): Iterable<string> {
  for (const tool of source.byName.values()) yield tool.qualifiedName;
}

/** The upstream's order; a tool not listed since its place was kept comes after the others, by name. */
function listedOrder(a: CatalogTool, b: CatalogTool): number {
  if (a.listPosition === b.listPosition) return compare(a.name, b.name);
  if (a.listPosition === null) return 1;
  if (b.listPosition === null) return -1;
  return a.listPosition - b.listPosition;
}

/** The position of the first tool named after `name` in name-ordered `tools`. */
function firstAfter(tools: readonly CatalogTool[], name: string): number {
  return partitionPoint(tools, (tool) => tool.qualifiedName > name);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
