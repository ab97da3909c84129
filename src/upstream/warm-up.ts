import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { preloadSchemas as preloadClientSchemas } from '@modelcontextprotocol/client';
import { fetch as undiciFetch } from 'undici';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { SchemaLimits } from '../shared/json-schema/schema-limits.js';
import { OffThreadSchemaCompiler } from '../shared/off-thread/off-thread-schema-compiler.js';

const logger = new Logger('warm-up');

/**
 * Pays, before Toolplane serves, the costs the first upstream and the first checked call of a
 * process otherwise pay on the event loop: the MCP SDK's client builds each protocol era's schemas
 * on first use, undici compiles its HTTP parser (WebAssembly) on its first connection, and RE2 and
 * the schema validators run cold. Paid during the first discovery, they held the event loop
 * 40–60 ms while other requests waited; the first check of a pattern took 12–20 ms. (The MCP
 * server module warms both sides of a session in memory: McpServerWarmUp.)
 */
@Injectable()
export class UpstreamWarmUp implements OnApplicationBootstrap {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async onApplicationBootstrap(): Promise<void> {
    const started = performance.now();
    try {
      // The schema compiles on the worker thread meanwhile (its start and first ajv compile are most of the wait).
      const checked = firstArgumentCheck(this.config.schemaLimits);
      preloadClientSchemas();
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
