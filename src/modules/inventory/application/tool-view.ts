import type { ToolStatus } from '../domain/source-tool.js';

export interface ToolView {
  id: string;
  qualifiedName: string;
  name: string;
  source: { id: string; name: string; enabled: boolean; readOnly: boolean };
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
  /** Where the source's upstream lists the tool in its tools/list (0 first); null until a refresh has seen it since Toolplane began keeping it. */
  listPosition: number | null;
  firstSeenAt: string;
  lastSeenAt: string;
  updatedAt: string;
}

export interface ToolPage {
  items: ToolView[];
  nextCursor: string | null;
}

export interface ToolFilter {
  source?: string;
  status?: ToolStatus | 'all';
  enabled?: boolean;
}

/** Read side for the inventory. */
export abstract class ToolViews {
  abstract get(qualifiedName: string): Promise<ToolView | undefined>;
  abstract list(filter: ToolFilter, cursor: string | undefined, limit: number): Promise<ToolPage>;
}
