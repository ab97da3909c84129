import type { AuthInfo } from '@modelcontextprotocol/server';
import type { McpExchange } from '../mcp-exchange.js';

const EXCHANGE = 'toolplane.exchange';

/** The SDK's AuthInfo for an exchange Toolplane already authenticated; the key itself is never handed on. */
export function authInfoOf(exchange: McpExchange): AuthInfo {
  return { token: '', clientId: exchange.principal.id, scopes: [...exchange.principal.roles], extra: { [EXCHANGE]: exchange } };
}

/** The exchange a request was authenticated with (each request of a 2025-era session brings its own). */
export function exchangeOf(authInfo: AuthInfo | undefined): McpExchange | undefined {
  return authInfo?.extra?.[EXCHANGE] as McpExchange | undefined;
}
