import { withSchemas, type ToolDefinition } from '../modules/inventory/domain/tool-definition.js';
import type { OffThreadSchemaCompiler } from '../shared/off-thread/off-thread-schema-compiler.js';
import { TRIMMED_SCHEMA_KEY } from '../shared/json-schema/listing-guard.js';

/** Tools whose schemas are compiled at the same time (on the worker thread, one after the other). */
const BATCH = 32;
/** What is stored in place of a schema too large to keep: enough to say what kind of value it took. */
const STUB_SCHEMA = { type: 'object' };

/**
 * Decides, once per discovery, which tools can be called: a tool whose inputSchema is over a limit
 * or cannot be compiled is marked unusable with the reason (and an oversized schema is not kept,
 * only a stub); an oversized outputSchema is replaced by the stub too. Compiling happens on the
 * worker thread, a batch of tools at a time, so a large or hostile inventory never holds the event loop.
 */
export async function screenSchemas(tools: ToolDefinition[], compiler: OffThreadSchemaCompiler): Promise<ToolDefinition[]> {
  const screened: ToolDefinition[] = [];
  for (let start = 0; start < tools.length; start += BATCH) {
    screened.push(...(await Promise.all(tools.slice(start, start + BATCH).map((tool) => screenOne(tool, compiler)))));
  }
  return screened;
}

async function screenOne(tool: ToolDefinition, compiler: OffThreadSchemaCompiler): Promise<ToolDefinition> {
  const outputSchema = tool.outputSchema !== undefined && (trimmed(tool.outputSchema) || compiler.breach(tool.outputSchema)) ? STUB_SCHEMA : tool.outputSchema;
  // Already replaced on arrival (see trimOversizedSchemas), or over a limit now.
  const breach = trimmed(tool.inputSchema) ?? compiler.breach(tool.inputSchema);
  if (breach) return { ...withSchemas(tool, STUB_SCHEMA, outputSchema), unusableReason: breach };
  const screened = withSchemas(tool, tool.inputSchema, outputSchema);
  const verdict = await compiler.verdict(tool.inputSchema);
  return verdict.usable ? screened : { ...screened, unusableReason: verdict.reason };
}

function trimmed(schema: Record<string, unknown>): string | undefined {
  const reason = schema[TRIMMED_SCHEMA_KEY];
  return typeof reason === 'string' ? reason : undefined;
}
