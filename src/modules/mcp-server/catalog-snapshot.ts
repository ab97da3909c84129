import type { Tool } from '@modelcontextprotocol/server';
import { decideSource, decideTool, isRestricted, type ScopeDecision } from '../access/domain/tool-scope.js';
import { type ToolScope } from '../../shared/principal/tool-scope.js';
import type { ToolView } from '../inventory/application/tool-view.js';
import { toMcpTool } from '../catalog/domain/tool-formats.js';

/** What the MCP endpoints need to know about a source: whether it exists, and its tools by upstream name. */
export interface CatalogSource {
  /** Absent only for a source read without its row (its tools name it). */
  id?: string;
  name: string;
  enabled: boolean;
  /** Every active tool of the source (enabled or not), by its upstream name. */
  byName: Map<string, ToolView>;
  /** The tools a caller may use, in the order the source's upstream lists them. */
  usable: ToolView[];
}

const MAX_REMEMBERED_DECISIONS = 10_000;

/**
 * One immutable reading of the catalog, shared by every MCP request until the catalog changes.
 * The MCP tool definitions are projected once per reading and served from here.
 */
export class CatalogSnapshot {
  /** Tools a caller may use: active, enabled, of an enabled source, and admissible by its policy. */
  readonly usable: readonly ToolView[];
  readonly byQualifiedName: ReadonlyMap<string, ToolView>;
  readonly sources: ReadonlyMap<string, CatalogSource>;
  /** Changes whenever anything a client sees in a tools/list changes. */
  readonly fingerprint: string;
  private qualifiedDefinitions?: Tool[];
  private readonly sourceDefinitions = new Map<string, Tool[]>();
  /** Decisions already made on this reading, by source and scope: a restricted caller may ask per request, and a refusal reads every tool of the source. */
  private readonly sourceDecisions = new Map<string, ScopeDecision>();

  constructor(
    tools: readonly ToolView[],
    sources: readonly { id?: string; name: string; enabled: boolean }[],
  ) {
    const sorted = [...tools].sort((a, b) => compare(a.qualifiedName, b.qualifiedName));
    this.usable = sorted.filter(isUsable);
    this.byQualifiedName = new Map(sorted.map((tool) => [tool.qualifiedName, tool]));
    const byName = new Map<string, CatalogSource>();
    for (const source of sources) byName.set(source.name, { ...(source.id ? { id: source.id } : {}), name: source.name, enabled: source.enabled, byName: new Map(), usable: [] });
    for (const tool of sorted) {
      let source = byName.get(tool.source.name);
      if (!source) {
        source = { id: tool.source.id, name: tool.source.name, enabled: tool.source.enabled, byName: new Map(), usable: [] };
        byName.set(source.name, source);
      }
      source.byName.set(tool.name, tool);
      if (isUsable(tool)) source.usable.push(tool);
    }
    for (const source of byName.values()) source.usable.sort(listedOrder);
    this.sources = byName;
    this.fingerprint = this.usable.map((tool) => `${tool.qualifiedName}\u0000${tool.definitionHash}\u0000${tool.declaredHash}\u0000${tool.listPosition}`).join('\u0001');
  }

  /** The MCP definitions of every usable tool (of those `scope` allows), named by qualified name, in name order. */
  qualifiedTools(scope?: ToolScope): Tool[] {
    this.qualifiedDefinitions ??= this.usable.map((tool) => asListed(tool, tool.qualifiedName));
    if (!isRestricted(scope)) return this.qualifiedDefinitions;
    return this.qualifiedDefinitions.filter((_, i) => allows(scope, this.usable[i]!));
  }

  /** The usable tools `scope` allows (all without one), in qualified-name order. */
  usableFor(scope?: ToolScope): readonly ToolView[] {
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
      if (this.sourceDecisions.size >= MAX_REMEMBERED_DECISIONS) this.sourceDecisions.clear();
      this.sourceDecisions.set(key, decision);
    }
    return { source, decision };
  }

  /** The MCP definitions of one source's usable tools (of those `scope` allows), named as the source names them, in the order it lists them. */
  sourceTools(sourceName: string, scope?: ToolScope): Tool[] {
    const usable = this.sources.get(sourceName)?.usable ?? [];
    if (isRestricted(scope)) return usable.filter((tool) => allows(scope, tool)).map((tool) => asListed(tool, tool.name));
    let definitions = this.sourceDefinitions.get(sourceName);
    if (!definitions) {
      definitions = usable.map((tool) => asListed(tool, tool.name));
      this.sourceDefinitions.set(sourceName, definitions);
    }
    return definitions;
  }
}

/**
 * Whether a caller may use the tool at all: a tool that ExecuteTool would always refuse (disabled,
 * deprecated, unusable, of a disabled source, or not read-only on a read-only source) is not offered.
 */
export function isUsable(tool: ToolView): boolean {
  if (tool.status !== 'active' || !tool.enabled || !tool.source.enabled || tool.unusableReason !== null) return false;
  return !tool.source.readOnly || tool.annotations?.readOnlyHint === true;
}

/** The tool as MCP lists it: as its upstream declared it, under the name the endpoint exposes. */
function asListed(tool: ToolView, name: string): Tool {
  return toMcpTool(tool, name) as Tool;
}

function allows(scope: ToolScope, tool: ToolView): boolean {
  return decideTool(scope, { qualifiedName: tool.qualifiedName, sourceName: tool.source.name }).allowed;
}

/** The qualified names of a source's tools, read only as far as a decision needs them. */
function* qualifiedNames(source: CatalogSource): Iterable<string> {
  for (const tool of source.byName.values()) yield tool.qualifiedName;
}

/** The upstream's order; a tool not listed since its place was kept comes after the others, by name. */
function listedOrder(a: ToolView, b: ToolView): number {
  if (a.listPosition === b.listPosition) return compare(a.name, b.name);
  if (a.listPosition === null) return 1;
  if (b.listPosition === null) return -1;
  return a.listPosition - b.listPosition;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
