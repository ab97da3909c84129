import { canonicalJson, sha256Hex } from './canonical-json.js';

/** A tool as its upstream describes it; everything the definition hash covers. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** Set when the tool cannot be called: its inputSchema is over a limit or cannot be compiled. */
  unusableReason?: string;
}

export function definitionHash(tool: ToolDefinition): string {
  return sha256Hex(
    canonicalJson({
      name: tool.name,
      title: tool.title ?? null,
      description: tool.description ?? null,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema ?? null,
      annotations: tool.annotations ?? null,
      // Only when set, so the hashes of usable tools stay what they were.
      ...(tool.unusableReason ? { unusableReason: tool.unusableReason } : {}),
    }),
  );
}

/** One hash for a whole inventory: changes when any tool is added, removed or changed. */
export function inventoryHash(definitionHashes: string[]): string {
  return sha256Hex([...definitionHashes].sort().join('\n'));
}
