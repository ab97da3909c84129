export { TOOLPLANE_CLIENT_INFO, TOOLPLANE_CLIENT_NAME, TOOLPLANE_CLIENT_VERSION } from './client-info.js';
export {
  connectUpstream,
  createUpstreamClient,
  createUpstreamTransport,
  DEFAULT_MODERN_INPUT_CAPABILITIES,
  priorFor,
  type ClientFactorySettings,
  type HttpSettings,
  type PoolSettings,
  type StdioSettings,
} from './client-factory.js';
export { Deadline } from './deadline.js';
export { McpConnection, type ConnectionIdentity, type NegotiatedProtocol } from './mcp-connection.js';
export { DEFAULT_MAX_MESSAGE_BYTES, RequestScopedHttpTransport, type RequestScopedHttpTransportOptions } from './http/request-scoped-http-transport.js';
export { McpInventoryFetcher } from './mcp-inventory-fetcher.js';
export { McpToolExecutor, toInvocationFailure } from './mcp-tool-executor.js';
export { McpModule } from './mcp.module.js';
export { killAllStdioProcesses, liveStdioProcessIds } from './stdio/process-registry.js';
export { StdioMessageTooLargeError, StdioProcessExitError, StdioSpawnError } from './stdio/stdio-errors.js';
export { StdioProcessTransport, type StdioExit, type StdioProcessOptions } from './stdio/stdio-process-transport.js';
export { DEFAULT_INVENTORY_LIMITS, listAllTools, toDiscoveredTool, type InventoryLimits } from './tool-inventory.js';
export { limitResult, resultBytes, type RecordedToolResult } from '../modules/execution/domain/tool-result.js';
export { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_RESTART_BACKOFF, TransportFactory, type ClientSession, type ClientUseOptions } from './transport-factory.js';
export { UpstreamError, type UpstreamFailureKind } from './upstream-error.js';
