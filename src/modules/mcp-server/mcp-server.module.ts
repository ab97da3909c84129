import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module.js';
import { ExecutionModule } from '../execution/execution.module.js';
import { McpGatewayServer } from './mcp-gateway-server.js';
import { McpServerWarmUp } from './mcp-server-warm-up.js';
import { McpToolServers } from './mcp-tool-servers.js';
import { SourceGate } from './source-gate.js';
import { SourcePrimitives } from './source-primitives.js';
import { McpTaskRequests } from './tasks/mcp-task-requests.js';
import { TaskStatusNotifier } from './tasks/task-status-notifier.js';
import { TaskSubscriptions } from './tasks/task-subscriptions.js';

/**
 * Toolplane as an MCP server: `/mcp`, `/mcp/sources/{name}`, `/mcp/groups/{name}` and `/mcp/gateway` in both protocol
 * eras (mounted by registerMcpRoutes), with MCP tasks (McpTaskRequests). Reads the catalog, calls tools through ExecuteTool
 * and CallTasks.
 */
@Module({
  imports: [CatalogModule, ExecutionModule],
  providers: [SourcePrimitives, McpToolServers, SourceGate, McpGatewayServer, McpServerWarmUp, McpTaskRequests, TaskStatusNotifier, TaskSubscriptions],
  exports: [McpGatewayServer, McpTaskRequests],
})
export class McpServerModule {}
