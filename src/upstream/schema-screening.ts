import { withSchemas, type ToolDefinition } from '../modules/inventory/domain/tool-definition.js';
import type { OffThreadSchemaCompiler } from '../shared/off-thread/off-thread-schema-compiler.js';
import { heavySteps } from '../shared/heavy-steps.js';
import { TRIMMED_SCHEMA_KEY } from '../shared/json-schema/listing-guard.js';

/** Tools whose schemas are compiled at the same time (on the worker thread, one after the other). */
const BATCH = 32;
/** How long measuring schemas against the limits runs before it lets the event loop turn. */
const LIMITS_SLICE_MS = 5;
/** What is stored in place of a schema too large to keep: enough to say what kind of value it took. */
const STUB_SCHEMA = { type: 'object' };

/**
 * Decides, once per discovery, which tools can be called: a tool whose inputSchema is over a limit
 * or cannot be compiled is marked unusable with the reason (and an oversized schema is not kept,
 * only a stub); an oversized outputSchema is replaced by the stub too. Compiling happens on the
 * worker thread, a batch of tools at a time, so a large or hostile inventory never holds the event loop.
 */
export async function screenSchemas(tools: ToolDefinition[], compiler: OffThreadSchemaCompiler): Promise<ToolDefinition[]> {
  // The listing was read in this turn: measuring the limits starts in a turn of its own and goes
  // on in slices (a listing of large schemas takes tens of milliseconds). Compiling is on the worker.
  await heavySteps.turn();
  const slices = heavySteps.slices(LIMITS_SLICE_MS);
  const withinLimits: ToolDefinition[] = [];
  for (const tool of tools) {
    await slices.next();
    withinLimits.push(limited(tool, compiler));
  }
  const screened: ToolDefinition[] = [];
  for (let start = 0; start < withinLimits.length; start += BATCH) {
    screened.push(...(await Promise.all(withinLimits.slice(start, start + BATCH).map((tool) => compiled(tool, compiler)))));
  }
  return screened;
}

/** The tool with a stub for each schema over a limit, its inputSchema's breach its unusable reason. */
function limited(tool: ToolDefinition, compiler: OffThreadSchemaCompiler): ToolDefinition {
  const outputSchema = tool.outputSchema !== undefined && (trimmed(tool.outputSchema) || compiler.breach(tool.outputSchema)) ? STUB_SCHEMA : tool.outputSchema;
  // Already replaced on arrival (see trimOversizedSchemas), or over a limit now.
  const breach = trimmed(tool.inputSchema) ?? compiler.breach(tool.inputSchema);
  if (breach) return { ...withSchemas(tool, STUB_SCHEMA, outputSchema), unusableReason: breach };
  return withSchemas(tool, tool.inputSchema, outputSchema);
}

/** The tool, unusable with the reason when its inputSchema (within the limits) cannot be compiled. */
async function compiled(tool: ToolDefinition, compiler: OffThreadSchemaCompiler): Promise<ToolDefinition> {
  if (tool.unusableReason !== undefined) return tool;
  const verdict = await compiler.verdict(tool.inputSchema);
  return verdict.usable ? tool : { ...tool, unusableReason: verdict.reason };
}

function trimmed(schema: Record<string, unknown>): string | undefined {
  const reason = schema[TRIMMED_SCHEMA_KEY];
  return typeof reason === 'string' ? reason : undefined;
}
