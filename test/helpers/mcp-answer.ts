/** The JSON-RPC answer in an MCP HTTP response body: the body itself, or the last `data:` line of an SSE stream. */
export function mcpAnswer(text: string): any {
  const data = text.startsWith('{') ? text : text.split('\n').filter((line) => line.startsWith('data:')).at(-1)!.slice(5);
  return JSON.parse(data);
}
