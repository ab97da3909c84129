// The MCP requests of the benchmark, as single stateless JSON-RPC POSTs: a 2025-era client's
// (no initialize, no session; `MCP-Protocol-Version: 2025-11-25`) and a 2026-07-28 client's
// (the per-request `_meta` envelope and the `Mcp-Method`/`Mcp-Name` headers).

export const MODERN_VERSION = '2026-07-28';
export const LEGACY_VERSION = '2025-11-25';

/** The `_meta` envelope of a 2026-07-28 request. */
export const CLIENT_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'toolplane-bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

const ACCEPT = 'application/json, text/event-stream';

/** Headers of a 2025-era request. */
export const LEGACY_HEADERS = { accept: ACCEPT, 'mcp-protocol-version': LEGACY_VERSION };

/** Headers of a 2026-07-28 request of `method` (`name`: the tool of a `tools/call`). */
export function modernHeaders(method, name) {
  return { accept: ACCEPT, 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) };
}

/** A 2025-era `tools/call` of `name` with `args`. */
export function legacyToolsCall(name, args) {
  return { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } };
}

/** A 2026-07-28 `tools/call` of `name` with `args`. */
export function modernToolsCall(name, args) {
  return { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: CLIENT_META } };
}

/** A `tools/list` request (page after `cursor`) with its headers, in `era`. */
export function toolsListRequest(era, cursor) {
  const modern = era === MODERN_VERSION;
  const params = { ...(cursor === undefined ? {} : { cursor }), ...(modern ? { _meta: CLIENT_META } : {}) };
  return {
    headers: { 'content-type': 'application/json', ...(modern ? modernHeaders('tools/list') : { ...LEGACY_HEADERS, 'mcp-protocol-version': era }) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params }),
  };
}
