import type { Principal } from '../../shared/principal/principal.js';
import type { SessionClaims } from './sessions/sealed-session.js';

/** Which tools an endpoint offers: all (qualified names), one source's (upstream names), one group's (its served names), or the two meta-tools. */
export type McpSurface = { kind: 'all' } | { kind: 'source'; source: string } | { kind: 'group'; group: string } | { kind: 'gateway' };

/** One authenticated HTTP exchange with an MCP endpoint: who calls, on which surface, with which headers. */
export interface McpExchange {
  principal: Principal;
  surface: McpSurface;
  /** The HTTP request's id (X-Request-Id), named in the call's log lines: MCP requests do not run in the request context. */
  requestId?: string;
  userAgent?: string;
  correlationId?: string;
  /** The `MCP-Protocol-Version` header (2025 era: the version agreed in `initialize`). */
  protocolVersionHeader?: string;
  /** A 2025-era session Toolplane issued: what the client said in its `initialize`. */
  session?: SessionClaims;
  /** That session's id, as the request's `Mcp-Session-Id` header gave it. */
  sessionId?: string;
  /**
   * The id the request's `tools/call` is recorded under, chosen before the call so that the HTTP
   * answer can name it in its headers (see EXECUTION_ID_HEADER); the first execution takes it.
   */
  executionId?: string;
  /** Whether an execution took `executionId`. */
  executionIdTaken?: boolean;
}
