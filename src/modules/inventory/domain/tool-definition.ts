import { canonicalJson, sha256Hex } from './canonical-json.js';

/** A tool as its upstream describes it; everything the definition hash covers. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
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
    }),
  );
}

/** One hash for a whole inventory: changes when any tool is added, removed or changed. */
export function inventoryHash(definitionHashes: string[]): string {
  return sha256Hex([...definitionHashes].sort().join('\n'));
}
