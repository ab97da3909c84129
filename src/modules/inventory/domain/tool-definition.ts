import { canonicalJson, sha256Hex } from '../../../shared/canonical-json.js';
import type { DefinitionFinding } from './definition-scan/index.js';
import type { ToolReviewState } from './pinning/pinning.js';

/** A tool as its upstream describes it; everything the definition hash covers. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /**
   * The tool object exactly as the upstream listed it — every field (`execution`, `icons`, `_meta`,
   * fields of later revisions), in its key order — which agents are served. Its inputSchema and
   * outputSchema are the ones above (a stub where a schema was over a limit). Absent for a
   * definition written by hand: then it is made of the fields above.
   */
  declared?: Record<string, unknown>;
  /** Set when the tool cannot be called: its inputSchema is over a limit or cannot be compiled. */
  unusableReason?: string;
}

/** `deprecated`: its upstream no longer lists it (kept for history, and restored if it comes back). */
export type ToolStatus = 'active' | 'deprecated';

/** The source of a tool, as a tool shows it. */
export interface CatalogToolSource {
  id: string;
  name: string;
  enabled: boolean;
  readOnly: boolean;
}

/**
 * A tool as the catalog serves it: the one read shape of a tool, for every reader (the admin view
 * `GET /api/v1/tools[/{qualifiedName}]`, the catalog's snapshot, the MCP endpoints, the routes of
 * calls). Its definition is kept as declared; the projections agents are served (MCP, OpenAI,
 * Anthropic, a search hit) are in the catalog's `tool-formats.ts`.
 */
export interface CatalogTool {
  id: string;
  qualifiedName: string;
  /** The name upstream. */
  name: string;
  source: CatalogToolSource;
  title: string | null;
  description: string | null;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown> | null;
  annotations: Record<string, unknown> | null;
  /** The tool object exactly as its upstream declared it (every field, in its key order), under its upstream name. */
  definition: Record<string, unknown>;
  /** Why the tool cannot be called (its inputSchema is over a limit or cannot be compiled); null when it can. */
  unusableReason: string | null;
  definitionHash: string;
  /** Moves whenever `definition` does, key order included (definitionHash is over a canonical form). */
  declaredHash: string;
  status: ToolStatus;
  enabled: boolean;
  /** `approved`: its definition is served; `pending_review` or `rejected`: held out of every catalog, calls refused (see pinning). */
  reviewState: ToolReviewState;
  /** What the definition scan found in the current definition. */
  findings: DefinitionFinding[];
  /** Where the source's upstream lists the tool in its tools/list (0 first); null until a refresh has seen it since Toolplane began keeping it. */
  listPosition: number | null;
  firstSeenAt: string;
  lastSeenAt: string;
  updatedAt: string;
}

/** The fields with a column of their own; the others are the definition's extra fields. */
const OWN_FIELDS: ReadonlySet<string> = new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations']);

/** The definition hash: over a canonical form (key order alone is not a change). */
export function definitionHash(tool: ToolDefinition): string {
  const extra = extraFields(tool);
  return sha256Hex(
    canonicalJson({
      name: tool.name,
      title: tool.title ?? null,
      description: tool.description ?? null,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema ?? null,
      annotations: tool.annotations ?? null,
      // Only when set, so the hashes of tools without them stay what they were.
      ...(extra ? { extra } : {}),
      ...(tool.unusableReason ? { unusableReason: tool.unusableReason } : {}),
    }),
  );
}

/** A hash of the definition exactly as declared, key order included: it moves whenever what agents are served moves. */
export function declaredHash(tool: ToolDefinition): string {
  return sha256Hex(JSON.stringify(declaredTool(tool)));
}

/** The fields of the declared tool other than those Toolplane reads itself, or undefined when there are none. */
function extraFields(tool: ToolDefinition): Record<string, unknown> | undefined {
  if (!tool.declared) return undefined;
  const extra = Object.entries(tool.declared).filter(([key, value]) => !OWN_FIELDS.has(key) && value !== undefined);
  return extra.length > 0 ? Object.fromEntries(extra) : undefined;
}

/** The tool as it is served: as declared, or made of its fields. */
export function declaredTool(tool: ToolDefinition): Record<string, unknown> {
  if (tool.declared) return tool.declared;
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
  };
}

/** The definition with other schemas (a stub in place of one over a limit), in its declared form too. */
export function withSchemas(tool: ToolDefinition, inputSchema: Record<string, unknown>, outputSchema: Record<string, unknown> | undefined): ToolDefinition {
  if (inputSchema === tool.inputSchema && outputSchema === tool.outputSchema) return tool;
  const declared = tool.declared ? { ...tool.declared, inputSchema, ...(outputSchema !== undefined ? { outputSchema } : {}) } : undefined;
  return { ...tool, inputSchema, outputSchema, ...(declared ? { declared } : {}) };
}

/** How a tool may run as a task (2025-11-25 `execution.taskSupport`); absent or unknown is `forbidden`. */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** The `execution.taskSupport` a tool declared (its definition as listed), `forbidden` when it declared none. */
export function taskSupportOf(declared: Record<string, unknown> | undefined): TaskSupport {
  const execution = declared?.execution;
  if (execution === null || typeof execution !== 'object') return 'forbidden';
  const support = (execution as Record<string, unknown>).taskSupport;
  return support === 'optional' || support === 'required' ? support : 'forbidden';
}

/** One hash for a whole inventory: changes when any tool is added, removed or changed. */
export function inventoryHash(definitionHashes: string[]): string {
  return sha256Hex([...definitionHashes].sort().join('\n'));
}
