import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Client, ProtocolError, StreamableHTTPClientTransport, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import { expectNoProcesses } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES } from '../helpers/upstreams.js';

const PAGED_FIXTURE = join(FIXTURES, 'paged-primitives-server.mjs');
const RAW: StandardSchemaV1<unknown, any> = { '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value }) } };

type Mode = 'modern' | 'legacy';

/** `/mcp/sources/{name}` relays the prompts and resources of the source's upstream, in both eras. */
describe('/mcp/sources/{name} prompts and resources', () => {
  let h: Harness;
  const tag = `source-primitives-${randomUUID()}`;
  const clients: Client[] = [];

  const connect = async (source: string, mode: Mode) => {
    const client = new Client({ name: `primitives-${mode}`, version: '1.0.0' }, mode === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
    const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp/sources/${source}`), { requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } } });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  const executions = async () => Number((await h.sql('SELECT count(*)::int AS n FROM executions'))[0].n);
  const rpcError = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a JSON-RPC error');
      },
      (error: unknown) => {
        expect(error).toBeInstanceOf(ProtocolError);
        return error as ProtocolError;
      },
    );

  beforeAll(async () => {
    h = await startHarness();
    const sources = [
      { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio', tag] },
      { name: 'paged', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [PAGED_FIXTURE, tag] },
      { name: 'off', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [PAGED_FIXTURE, tag] },
    ];
    for (const source of sources) {
      const created = await h.api.post('/api/v1/sources', { refreshIntervalSeconds: 0, ...source });
      expect(created.body).toMatchObject({ name: source.name, health: 'healthy' });
    }
    expect((await h.api.patch('/api/v1/sources/off', { enabled: false })).status).toBe(200);
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await h?.close();
    await expectNoProcesses([tag]);
  });

  describe.each<Mode>(['modern', 'legacy'])('with a %s client', (mode) => {
    let ev: Client;

    beforeAll(async () => {
      ev = await connect('ev', mode);
    });

    it('declares prompts and resources, without notifications it does not relay', () => {
      expect(ev.getProtocolEra()).toBe(mode);
      const capabilities = ev.getServerCapabilities()!;
      expect(capabilities).toMatchObject({ tools: expect.any(Object), prompts: {}, resources: {} });
      expect(capabilities.resources?.subscribe).toBeUndefined();
    });

    it('lists and gets prompts as the upstream answers them, recording no execution', async () => {
      const before = await executions();
      const { prompts } = await ev.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt', 'resource-prompt']));
      expect(prompts.find((prompt) => prompt.name === 'args-prompt')).toMatchObject({
        title: 'Arguments Prompt',
        arguments: expect.arrayContaining([expect.objectContaining({ name: 'city', required: true })]),
      });
      const prompt = await ev.getPrompt({ name: 'args-prompt', arguments: { city: 'Paris', state: 'Texas' } });
      expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: "What's weather in Paris, Texas?" } }]);
      expect(await executions()).toBe(before);
    });

    it("relays the upstream's error for an unknown prompt", async () => {
      const error = await rpcError(ev.getPrompt({ name: 'no-such-prompt' }));
      expect(error.code).toBe(-32602);
      expect(error.message).toContain('no-such-prompt');
    });

    it('lists and reads resources', async () => {
      const { resources } = await ev.listResources();
      const document = resources.find((resource) => resource.uri.startsWith('demo://resource/static/document/'));
      expect(document).toMatchObject({ name: expect.any(String), mimeType: expect.any(String) });
      const read = await ev.readResource({ uri: document!.uri });
      expect(read.contents[0]).toMatchObject({ uri: document!.uri, text: expect.any(String) });
    });

    it('lists resource templates and reads a resource through one', async () => {
      const { resourceTemplates } = await ev.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(expect.arrayContaining(['demo://resource/dynamic/text/{resourceId}']));
      const read = await ev.readResource({ uri: 'demo://resource/dynamic/text/7' });
      expect(read.contents).toEqual([expect.objectContaining({ uri: 'demo://resource/dynamic/text/7', mimeType: 'text/plain', text: expect.stringContaining('Resource 7') })]);
    });

    it('passes pagination cursors through both ways', async () => {
      const paged = await connect('paged', mode);
      const first = await paged.request({ method: 'prompts/list', params: {} }, RAW);
      expect(first.prompts.map((prompt: { name: string }) => prompt.name)).toEqual(['p1', 'p2']);
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await paged.request({ method: 'prompts/list', params: { cursor: first.nextCursor } }, RAW);
      expect(second.prompts.map((prompt: { name: string }) => prompt.name)).toEqual(['p3', 'p4']);
      // The SDK's own listing follows every cursor.
      expect((await paged.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
      expect((await paged.listResources()).resources.map((resource) => resource.uri)).toEqual(['paged://r1', 'paged://r2', 'paged://r3']);
      const forged = await rpcError(paged.request({ method: 'resources/list', params: { cursor: 'forged' } }, RAW));
      expect(forged.code).toBe(-32602);
    });

    it('answers -32601 for what the upstream does not declare', async () => {
      const paged = await connect('paged', mode);
      // The paged fixture has no resource templates handler; it declares resources, so the call is relayed.
      const error = await rpcError(paged.request({ method: 'resources/templates/list', params: {} }, RAW));
      expect(error.code).toBe(-32601);
    });

    it('lists nothing of a disabled source and refuses its prompts', async () => {
      const off = await connect('off', mode);
      expect((await off.listPrompts()).prompts).toEqual([]);
      expect((await off.listResources()).resources).toEqual([]);
      const error = await rpcError(off.getPrompt({ name: 'p1' }));
      expect(error.message).toContain('SOURCE_DISABLED');
      expect(error.data).toEqual({ code: 'SOURCE_DISABLED' });
    });
  });
});
