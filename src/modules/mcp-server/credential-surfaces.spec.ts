import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import type { CommandBus } from '@nestjs/cqrs';
import { catalogTool, sourcesOf } from '../../../test/helpers/catalog-tools.js';
import type { AppConfig } from '../../config/app-config.js';
import type { Principal } from '../../shared/principal/principal.js';
import { CatalogReader, type CatalogReading, type ToolTimes } from '../catalog/application/catalog-reader.js';
import { CatalogSnapshots } from '../catalog/application/catalog-snapshots.js';
import { GroupViews } from '../catalog/application/group-views.js';
import type { CatalogTool } from '../catalog/domain/catalog.js';
import { CONNECTION_META_KEY } from '../catalog/domain/connection-notes.js';
import { InMemoryPrincipalConnections } from '../catalog/testing/in-memory-principal-connections.js';
import type { CallTasks } from '../execution/application/call-tasks.js';
import type { ExecutedCall } from '../execution/application/execute-tool/execute-tool.command.js';
import type { ExecutionError } from '../executions/domain/execution.js';
import { aRefusedRecord } from '../executions/testing/builders.js';
import { GroupDefinitions } from '../groups/application/group-definitions.js';
import { aGroup } from '../groups/testing/builders.js';
import { InMemoryGroupRepository } from '../groups/testing/in-memory-group-repository.js';
import { CONNECT_URL_META_KEY } from './calls/call-result.js';
import type { McpExchange, McpSurface } from './mcp-exchange.js';
import { McpToolServers } from './mcp-tool-servers.js';
import type { SourcePrimitives } from './source-primitives.js';

/**
 * What an MCP caller is told of a source that wants its own credential: tools/list notes such
 * tools, and a call refused for want of consent or of a value of its own is answered in the shape
 * its era and capabilities take — through the SDK's own server and client, both eras.
 */
class FixedReader extends CatalogReader {
  constructor(private readonly tools: CatalogTool[]) {
    super();
  }
  async readAll(): Promise<CatalogReading> {
    return { tools: this.tools, sources: sourcesOf(this.tools) };
  }
  async readSource(): Promise<CatalogReading | undefined> {
    return undefined;
  }
  async readTimes(): Promise<Map<string, ToolTimes>> {
    return new Map();
  }
}

const alice: Principal = { id: 'oidc:alice@idp', name: 'alice', kind: 'oidc', roles: ['agent'] };
const CONNECT = 'https://toolplane.example/api/v1/connect/tkt_1';

describe('MCP surfaces of per-user credentials', () => {
  let snapshots: CatalogSnapshots;
  let connections: InMemoryPrincipalConnections;
  let groups: InMemoryGroupRepository;
  let refusal: ExecutionError;
  let servers: McpToolServers;
  const open: (() => Promise<void>)[] = [];

  beforeEach(() => {
    snapshots = new CatalogSnapshots(new FixedReader([catalogTool('crm__find', { description: 'Finds a customer' }), catalogTool('notes__add')]));
    connections = new InMemoryPrincipalConnections().lacks(alice.id, 'crm', { required: true, source: 'crm', connectUrl: 'https://toolplane.example/console/connections' });
    groups = new InMemoryGroupRepository();
    groups.groups.set('sales', aGroup('sales', { include: ['crm__find'] }));
    const commands = {
      execute: async (): Promise<ExecutedCall> => ({ record: aRefusedRecord(refusal), outputSchema: null }),
    } as unknown as CommandBus;
    const primitives = { capabilities: () => ({}), serve: () => undefined } as unknown as SourcePrimitives;
    servers = new McpToolServers(snapshots, commands, primitives, { mcpPageSize: 50, taskAfterMs: null } as AppConfig, new GroupViews(snapshots, new GroupDefinitions(groups)), {} as CallTasks, connections);
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((close) => close()));
    snapshots.onModuleDestroy();
  });

  async function connect(era: 'legacy' | 'modern', surface: McpSurface = { kind: 'all' }, capabilities: Record<string, unknown> = {}): Promise<Client> {
    const exchange = { principal: alice, surface } as McpExchange;
    const server: Server = servers.create(exchange, era);
    const client = new Client({ name: 'spec', version: '1' }, { capabilities });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide, era === 'legacy' ? { prior: { kind: 'legacy' } } : {});
    open.push(async () => {
      await client.close().catch(() => undefined);
      await server.close().catch(() => undefined);
    });
    return client;
  }

  it.each(['legacy', 'modern'] as const)('notes the tools of a source its caller has not connected to in tools/list, on every endpoint (%s era)', async (era) => {
    const listed = (await (await connect(era)).listTools()).tools;
    const find = listed.find((tool) => tool.name === 'crm__find')!;
    expect(find._meta).toMatchObject({ [CONNECTION_META_KEY]: { required: true, source: 'crm', connectUrl: 'https://toolplane.example/console/connections' } });
    expect(find.description).toBe('Finds a customer\n\nNeeds your connection to crm first: open https://toolplane.example/console/connections.');
    expect(listed.find((tool) => tool.name === 'notes__add')!._meta?.[CONNECTION_META_KEY]).toBeUndefined();
    const bySource = (await (await connect(era, { kind: 'source', source: 'crm' })).listTools()).tools;
    expect(bySource.map((tool) => [tool.name, Boolean(tool._meta?.[CONNECTION_META_KEY])])).toEqual([['find', true]]);
    const byGroup = (await (await connect(era, { kind: 'group', group: 'sales' })).listTools()).tools;
    expect(byGroup[0]!._meta?.[CONNECTION_META_KEY]).toMatchObject({ source: 'crm' });
    // One read of the caller's connections per listing.
    expect(connections.reads).toEqual([
      { principalId: alice.id, sourceIds: ['crm', 'notes'] },
      { principalId: alice.id, sourceIds: ['crm'] },
      { principalId: alice.id, sourceIds: ['crm'] },
    ]);
  });

  it.each(['legacy', 'modern'] as const)("says so in the gateway's search_tools hits too (%s era)", async (era) => {
    const result = await (await connect(era, { kind: 'gateway' })).callTool({ name: 'search_tools', arguments: { query: 'customer' } });
    const hits = (result.structuredContent as { tools: { name: string; description?: string }[] }).tools;
    expect(hits).toEqual([{ name: 'crm__find', description: 'Finds a customer\n\nNeeds your connection to crm first: open https://toolplane.example/console/connections.', inputSchema: expect.any(Object) }]);
    const everything = (await (await connect(era, { kind: 'gateway' })).callTool({ name: 'search_tools', arguments: { query: '' } })).structuredContent as { tools: { name: string; description?: string }[] };
    expect(everything.tools.find((hit) => hit.name === 'notes__add')!.description ?? '').not.toContain('Needs your connection');
  });

  it('answers a 2025-11-25 caller that declared URL elicitation a refused consent as the -32042 error with the elicitation', async () => {
    refusal = { code: 'UPSTREAM_CONSENT_REQUIRED', message: 'crm needs your consent first.', retryable: false, details: [{ path: 'connectUrl', message: CONNECT }] };
    const client = await connect('legacy', { kind: 'all' }, { elicitation: { url: {} } });
    const error = await client.callTool({ name: 'crm__find', arguments: {} }).then(
      () => undefined,
      (thrown: { code?: number; data?: unknown }) => thrown,
    );
    expect(error?.code).toBe(ProtocolErrorCode.UrlElicitationRequired);
    expect(error?.data).toEqual({ elicitations: [{ mode: 'url', elicitationId: expect.any(String), url: CONNECT, message: 'crm needs your consent first.' }] });
  });

  it.each<['legacy' | 'modern', Record<string, unknown>]>([
    ['legacy', { elicitation: { form: {} } }],
    ['modern', { elicitation: { url: {} } }],
  ])('answers any other caller an error result saying what to open, the URL in _meta (%s era, %j)', async (era, capabilities) => {
    refusal = { code: 'UPSTREAM_CONSENT_REQUIRED', message: 'crm needs your consent first.', retryable: false, details: [{ path: 'connectUrl', message: CONNECT }] };
    const result = await (await connect(era, { kind: 'all' }, capabilities)).callTool({ name: 'crm__find', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result._meta).toEqual({ [CONNECT_URL_META_KEY]: CONNECT });
    expect(JSON.stringify(result.content)).toContain(`Open ${CONNECT} in a browser to connect`);
  });

  it.each(['legacy', 'modern'] as const)('names a missing value of the caller’s own and how to set it (%s era)', async (era) => {
    refusal = { code: 'UPSTREAM_CREDENTIAL_REQUIRED', message: 'crm needs a value of your own: CRM_TOKEN.', retryable: false, details: [{ path: 'missing', message: 'CRM_TOKEN' }] };
    const result = await (await connect(era, { kind: 'all' }, { elicitation: { url: {} } })).callTool({ name: 'crm__find', arguments: {} });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toContain('${user-secret:CRM_TOKEN}');
    expect(text).toContain('PUT /api/v1/me/secrets/CRM_TOKEN');
  });
});
