import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING } from '../helpers/upstreams.js';

/**
 * LangChain's MCP adapter (`MultiServerMCPClient`) on `/mcp`: what its ToolMessage hands the model
 * is the tool's own text, as it is against the upstream directly. (A result carrying `_meta` makes
 * the adapter wrap a single text block into a JSON string, so Toolplane adds none unless asked.)
 */
describe("LangChain's MCP adapter", () => {
  let h: Harness;
  let client: MultiServerMCPClient;

  beforeAll(async () => {
    h = await startHarness();
    const created = await h.api.post('/api/v1/sources', { name: 'everything', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] });
    expect(created.status).toBe(201);
    client = new MultiServerMCPClient({
      mcpServers: { toolplane: { transport: 'http', url: `${h.url}/mcp`, headers: { authorization: `Bearer ${h.adminKey}` }, automaticSSEFallback: false } },
    });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await h?.close();
  });

  const invoke = async (name: string, args: Record<string, unknown>) => {
    const tools = await client.getTools();
    const tool = tools.find((candidate) => candidate.name === name);
    if (!tool) throw new Error(`${name} is not among ${tools.map((t) => t.name).join(', ')}`);
    return tool.invoke({ type: 'tool_call', id: 'call_1', name, args });
  };

  it("gives the model the tool's plain text", async () => {
    const message = await invoke('everything__echo', { message: 'hi' });
    expect(message.content).toBe('Echo: hi');
  });

  it('gives the model the image as the upstream sent it', async () => {
    const message = await invoke('everything__get-tiny-image', {});
    expect(message.content).toEqual([
      { type: 'text', text: "Here's the image you requested:" },
      { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/png;base64,iVBOR/) } },
      { type: 'text', text: 'The image above is the MCP logo.' },
    ]);
  });

  it('lists every tool under its qualified name, with the schema as declared', async () => {
    const tools = await client.getTools();
    expect(tools.map((tool) => tool.name)).toContain('everything__get-sum');
    // A tool that must run as a task is offered too: Toolplane runs it as one upstream.
    expect(tools.map((tool) => tool.name)).toContain('everything__simulate-research-query');
  });
});
