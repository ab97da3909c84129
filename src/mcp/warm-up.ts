import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InMemoryTransport, preloadSchemas as preloadClientSchemas, type PriorDiscovery } from '@modelcontextprotocol/client';
import { McpServer, fromJsonSchema, preloadSchemas as preloadServerSchemas } from '@modelcontextprotocol/server';
import { fetch as undiciFetch } from 'undici';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { SchemaLimits } from '../shared/json-schema/schema-limits.js';
import { OffThreadSchemaCompiler } from '../shared/off-thread/off-thread-schema-compiler.js';
import { createUpstreamClient } from './client-factory.js';

const logger = new Logger('warm-up');

/**
 * Pays, before Toolplane serves, the costs the first upstream and the first checked call of a
 * process otherwise pay on the event loop: the MCP SDK builds each protocol era's schemas on first
 * use and compiles each parser the first time it runs, undici compiles its HTTP parser
 * (WebAssembly) on its first connection, and RE2 and the schema validators run cold. Paid during
 * the first discovery, they held the event loop 40–60 ms while other requests waited; the first
 * check of a pattern took 12–20 ms.
 */
@Injectable()
export class FirstUseWarmUp implements OnApplicationBootstrap {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async onApplicationBootstrap(): Promise<void> {
    const started = performance.now();
    try {
      // The schema compiles on the worker thread meanwhile (its start and first ajv compile are most of the wait).
      const checked = firstArgumentCheck(this.config.schemaLimits);
      preloadClientSchemas();
      preloadServerSchemas();
      // One session per era, through Toolplane's own client: handshake, a listing, a call.
      await inMemorySession({ kind: 'legacy' });
      await inMemorySession(undefined);
      await firstHttpExchange();
      await checked;
    } catch (error) {
      // Only a head start: whatever failed here is simply paid later, by the first real upstream.
      logger.warn(`warming up failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    logger.debug(`warmed up in ${Math.round(performance.now() - started)} ms`);
  }
}

/** A schema compiled as tools' schemas are (on the worker thread) and run against arguments it refuses. */
async function firstArgumentCheck(limits: SchemaLimits): Promise<void> {
  const compiled = await new OffThreadSchemaCompiler(limits).compile({
    type: 'object',
    properties: { name: { type: 'string', pattern: '^[a-z]+$' }, mail: { type: 'string', format: 'email' }, tags: { type: 'array', uniqueItems: true } },
  });
  if (compiled.usable) compiled.validate({ name: 'Warm', mail: 'warm@example.com', tags: [1, 1] });
}

async function inMemorySession(prior: PriorDiscovery | undefined): Promise<void> {
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
    await client.connect(clientSide, prior ? { prior } : {});
    await client.listTools();
    await client.callTool({ name: 'echo', arguments: { text: 'warm' } });
  } finally {
    await client.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}

/** One request through each fetch Toolplane uses for remote sources (undici's and Node's own), on loopback. */
async function firstHttpExchange(): Promise<void> {
  const server = createServer((_request, response) => response.end('{}'));
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    await (await undiciFetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).text();
    await (await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).text();
  } finally {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
  }
}
