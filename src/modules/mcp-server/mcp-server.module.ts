import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { ExecutionModule } from '../execution/execution.module.js';
import { McpGatewayServer } from './mcp-gateway-server.js';
import { McpServerWarmUp } from './mcp-server-warm-up.js';
import { McpToolServers } from './mcp-tool-servers.js';
import { SourceGate } from './source-gate.js';
import { SourcePrimitives } from './source-primitives.js';

/**
 * Toolplane as an MCP server: `/mcp`, `/mcp/sources/{name}`, `/mcp/groups/{name}` and `/mcp/gateway` in both protocol
 * eras (mounted by registerMcpRoutes). Reads the catalog, calls tools through ExecuteTool.
 */
@Module({
  imports: [CatalogModule, ExecutionModule],
  providers: [SourcePrimitives, McpToolServers, SourceGate, McpGatewayServer, McpServerWarmUp],
  exports: [McpGatewayServer],
})
export class McpServerModule {}
