import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InMemoryTransport, McpServer, fromJsonSchema, preloadSchemas as preloadServerSchemas } from '@modelcontextprotocol/server';
import { createUpstreamClient } from '../../upstream/client-factory.js';

const logger = new Logger('warm-up');

/**
 * Pays, before Toolplane serves, what the first MCP exchange of a process otherwise pays on the
 * event loop: the SDK's server builds each protocol era's schemas on first use and compiles each
 * parser the first time it runs. One in-memory session per era between an SDK server and
 * Toolplane's own upstream client warms both sides (handshake, a listing, a call).
 */
@Injectable()
export class McpServerWarmUp implements OnApplicationBootstrap {
  async onApplicationBootstrap(): Promise<void> {
    const started = performance.now();
    try {
      preloadServerSchemas();
      await inMemorySession(true);
      await inMemorySession(false);
    } catch (error) {
      // Only a head start: whatever failed here is simply paid later, by the first real exchange.
      logger.warn(`warming up the MCP server failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    logger.debug(`MCP server warmed up in ${Math.round(performance.now() - started)} ms`);
  }
}

async function inMemorySession(legacy: boolean): Promise<void> {
  const server = new McpServer({ name: 'toolplane-warm-up', version: '1' }, { capabilities: { tools: {} } });
  server.registerTool(
    'echo',
    {
      description: 'Returns its text',
      inputSchema: fromJsonSchema<{ text: string }>({ type: 'object', properties: { text: { type: 'string', pattern: '^[a-z]+$' } }, required: ['text'] }),
      outputSchema: fromJsonSchema({ type: 'object', properties: { text: { type: 'string' } } }),
    },
    async ({ text }) => ({ content: [{ type: 'text', text: String(text) }], structuredContent: { text } }),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = createUpstreamClient();
  try {
    await server.connect(serverSide);
    await client.connect(clientSide, legacy ? { prior: { kind: 'legacy' } } : {});
    await client.listTools();
    await client.callTool({ name: 'echo', arguments: { text: 'warm' } });
  } finally {
    await client.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}
