import { Module } from '@nestjs/common';
import { McpCatalog } from './mcp-catalog.js';
import { McpGatewayServer } from './mcp-gateway-server.js';
import { McpServerWarmUp } from './mcp-server-warm-up.js';
import { McpToolServers } from './mcp-tool-servers.js';
import { SourceGate } from './source-gate.js';
import { SourcePrimitives } from './source-primitives.js';

/**
 * Toolplane as an MCP server: `/mcp`, `/mcp/sources/{name}` and `/mcp/gateway` in both protocol
 * eras (mounted by registerMcpRoutes). Reads the catalog, calls tools through ExecuteTool.
 */
@Module({
  providers: [McpCatalog, SourcePrimitives, McpToolServers, SourceGate, McpGatewayServer, McpServerWarmUp],
  exports: [McpGatewayServer],
})
export class McpServerModule {}
