import type { ToolDefinition } from '../modules/inventory/domain/tool-definition.js';
import type { SchemaCompiler } from '../shared/json-schema/schema-compiler.js';
import { TRIMMED_SCHEMA_KEY } from './listing-guard.js';

/** Compiling runs on the event loop: after this much of it, other work gets a turn. */
const SLICE_MS = 10;
/** What is stored in place of a schema too large to keep: enough to say what kind of value it took. */
const STUB_SCHEMA = { type: 'object' };

/**
 * Decides, once per discovery, which tools can be called: a tool whose inputSchema is over a limit
 * or cannot be compiled is marked unusable with the reason (and an oversized schema is not kept,
 * only a stub); an oversized outputSchema is replaced by the stub too. Yields between tools, so a
 * large inventory never holds the event loop for long.
 */
export async function screenSchemas(tools: ToolDefinition[], compiler: SchemaCompiler): Promise<ToolDefinition[]> {
  const screened: ToolDefinition[] = [];
  let sliceStart = performance.now();
  for (const tool of tools) {
    screened.push(screenOne(tool, compiler));
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return screened;
}

function screenOne(tool: ToolDefinition, compiler: SchemaCompiler): ToolDefinition {
  const outputSchema = tool.outputSchema !== undefined && (trimmed(tool.outputSchema) || compiler.breach(tool.outputSchema)) ? STUB_SCHEMA : tool.outputSchema;
  // Already replaced on arrival (see trimOversizedSchemas), or over a limit now.
  const breach = trimmed(tool.inputSchema) ?? compiler.breach(tool.inputSchema);
  if (breach) return { ...tool, inputSchema: STUB_SCHEMA, outputSchema, unusableReason: breach };
  const compiled = compiler.compile(tool.inputSchema);
  return compiled.usable ? { ...tool, outputSchema } : { ...tool, outputSchema, unusableReason: compiled.reason };
}

function trimmed(schema: Record<string, unknown>): string | undefined {
  const reason = schema[TRIMMED_SCHEMA_KEY];
  return typeof reason === 'string' ? reason : undefined;
}
