import { ProtocolError, type Client, type RequestOptions, type Tool } from '@modelcontextprotocol/client';
import type { DiscoveredTool } from '../modules/sources/domain/upstream.js';
import { UpstreamError } from './upstream-error.js';

export interface InventoryLimits {
  maxPages: number;
  maxTools: number;
}

export const DEFAULT_INVENTORY_LIMITS: InventoryLimits = { maxPages: 1000, maxTools: 10_000 };

const METHOD_NOT_FOUND = -32601;

/**
 * Walks every `tools/list` page with explicit cursors (the SDK's aggregate walk caps at 64 pages
 * and caches). Stops with an error past the limits or when the server repeats a cursor.
 * A tool name seen again on a later page is ignored: the first definition wins.
 */
export async function listAllTools(
  client: Client,
  requestOptions: () => RequestOptions,
  limits: InventoryLimits = DEFAULT_INVENTORY_LIMITS,
): Promise<DiscoveredTool[]> {
  const tools = new Map<string, DiscoveredTool>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    if (page > limits.maxPages) throw new UpstreamError('limit', `tools/list did not end within ${limits.maxPages} pages`);
    let result: { tools: Tool[]; nextCursor?: string };
    try {
      result = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, requestOptions());
    } catch (error) {
      // A server without tools (and without the capability) may not implement the method at all.
      if (page === 1 && error instanceof ProtocolError && error.code === METHOD_NOT_FOUND && !client.getServerCapabilities()?.tools) {
        return [];
      }
      throw error;
    }
    for (const tool of result.tools) {
      if (!tools.has(tool.name)) tools.set(tool.name, toDiscoveredTool(tool));
      if (tools.size > limits.maxTools) throw new UpstreamError('limit', `server lists more than ${limits.maxTools} tools`);
    }
    const next = result.nextCursor;
    if (next === undefined || next === null) return [...tools.values()];
    if (cursors.has(next)) throw new UpstreamError('protocol', `tools/list pagination loops: cursor repeated after page ${page}`);
    cursors.add(next);
    cursor = next;
  }
}

/** Keeps the tool definition verbatim: title is the top-level one, annotations (including their title) untouched. */
export function toDiscoveredTool(tool: Tool): DiscoveredTool {
  const discovered: DiscoveredTool = { name: tool.name, inputSchema: { ...tool.inputSchema } };
  if (typeof tool.title === 'string') discovered.title = tool.title;
  if (typeof tool.description === 'string') discovered.description = tool.description;
  if (tool.outputSchema) discovered.outputSchema = { ...tool.outputSchema };
  if (tool.annotations) discovered.annotations = { ...tool.annotations };
  return discovered;
}
