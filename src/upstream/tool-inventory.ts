import { isSpecType, ProtocolError, type Client, type RequestOptions, type StandardSchemaV1, type Tool } from '@modelcontextprotocol/client';
import type { DiscoveredTool } from '../modules/sources/domain/upstream.js';
import { isRecord } from '../shared/is-record.js';
import { UpstreamError } from './upstream-error.js';

export interface InventoryLimits {
  maxPages: number;
  maxTools: number;
}

export const DEFAULT_INVENTORY_LIMITS: InventoryLimits = { maxPages: 1000, maxTools: 10_000 };

const METHOD_NOT_FOUND = -32601;

/**
 * The listing as the upstream sent it. The SDK's own result schema would rebuild every tool in its
 * own key order and drop the fields it does not know; the same schema is applied below as a check only.
 */
const AS_SENT: StandardSchemaV1<unknown, unknown> = { '~standard': { version: 1, vendor: 'toolplane', validate: (value) => ({ value }) } };

/**
 * Walks every `tools/list` page with explicit cursors (the SDK's aggregate walk caps at 64 pages
 * and caches). Stops with an error past the limits or when the server repeats a cursor.
 * A tool name seen again on a later page is ignored: the first definition wins.
 */
/** Wraps the request for one page (a CLIENT span); `send` takes the trace context to put in the request's `_meta`. */
export type PageObserver = (send: (meta: Record<string, string> | undefined) => Promise<unknown>) => Promise<unknown>;

export async function listAllTools(
  client: Client,
  requestOptions: () => RequestOptions,
  limits: InventoryLimits = DEFAULT_INVENTORY_LIMITS,
  observePage?: PageObserver,
): Promise<DiscoveredTool[]> {
  const tools = new Map<string, DiscoveredTool>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    if (page > limits.maxPages) throw new UpstreamError('limit', `tools/list did not end within ${limits.maxPages} pages`);
    let result: { tools: Tool[]; nextCursor?: string };
    try {
      const params = cursor === undefined ? {} : { cursor };
      const send = (meta: Record<string, string> | undefined) => client.request({ method: 'tools/list', params: meta ? { ...params, _meta: meta } : params }, AS_SENT, requestOptions());
      const sent = observePage ? await observePage(send) : await send(undefined);
      if (!isSpecType.ListToolsResult(withoutPropertyValues(sent))) throw new UpstreamError('protocol', `tools/list answered a result that is not a list of tools (page ${page})`);
      // The same shape as the listing checked: only values inside `properties` maps were left out.
      result = sent as { tools: Tool[]; nextCursor?: string };
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

/**
 * The listing for the SDK's shape check, each schema's `properties` map emptied. The check walks
 * every property value to see that it is a JSON value, which anything parsed from JSON is: on a
 * schema of 1,000 properties that walk took 8–16 ms of the event loop. A
 * `properties` that is not a map is left as it is, for the check to refuse.
 */
export function withoutPropertyValues(listing: unknown): unknown {
  if (!isRecord(listing) || !Array.isArray(listing.tools)) return listing;
  return { ...listing, tools: listing.tools.map((tool: unknown) => (isRecord(tool) ? { ...tool, ...emptied(tool, 'inputSchema'), ...emptied(tool, 'outputSchema') } : tool)) };
}

function emptied(tool: Record<string, unknown>, field: 'inputSchema' | 'outputSchema'): Record<string, unknown> {
  const schema = tool[field];
  return isRecord(schema) && isRecord(schema.properties) ? { [field]: { ...schema, properties: {} } } : {};
}

/**
 * Keeps the tool definition verbatim: `declared` is the tool object as sent (every field, in its
 * order); the fields Toolplane reads are taken from it (title is the top-level one, annotations untouched).
 */
export function toDiscoveredTool(tool: Tool): DiscoveredTool {
  const discovered: DiscoveredTool = { name: tool.name, inputSchema: { ...tool.inputSchema }, declared: tool as unknown as Record<string, unknown> };
  if (typeof tool.title === 'string') discovered.title = tool.title;
  if (typeof tool.description === 'string') discovered.description = tool.description;
  if (tool.outputSchema) discovered.outputSchema = { ...tool.outputSchema };
  if (tool.annotations) discovered.annotations = { ...tool.annotations };
  return discovered;
}
