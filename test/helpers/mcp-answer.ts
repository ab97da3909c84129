/** The JSON-RPC answer in an MCP HTTP response body: the body itself, or the last `data:` line of an SSE stream. */
export function mcpAnswer(text: string): any {
  const data = text.startsWith('{') ? text : text.split('\n').filter((line) => line.startsWith('data:')).at(-1)!.slice(5);
  return JSON.parse(data);
}

/** The JSON-RPC messages of an MCP Server-Sent Events stream as they come (each frame's `data:` line), however its chunks are cut. */
export async function* sseMessages(body: ReadableStream<Uint8Array> | null): AsyncGenerator<Record<string, any>> {
  if (!body) return;
  let buffered = '';
  const decoder = new TextDecoder();
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    const frames = buffered.split('\n\n');
    buffered = frames.pop()!;
    for (const frame of frames) {
      const data = frame.split('\n').find((line) => line.startsWith('data:'));
      if (data) yield JSON.parse(data.slice(5)) as Record<string, any>;
    }
  }
}
