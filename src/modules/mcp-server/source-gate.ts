import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RecordSourceRefusalCommand } from '../access/application/record-source-refusal/record-source-refusal.command.js';
import type { ScopeDecision } from '../access/domain/tool-scope.js';
import { isRecord } from '../../shared/is-record.js';
import type { CatalogSource } from '../catalog/domain/catalog-snapshot.js';
import { jsonRpcError } from './mcp-gateway-server.js';
import { CatalogSnapshots } from '../catalog/application/catalog-snapshots.js';
import { McpToolServers } from './mcp-tool-servers.js';
import { type McpExchange } from './mcp-exchange.js';

/** The methods a refusal names; anything else a caller sends is recorded as `other`, so callers cannot invent new records. */
const NAMED_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'server/discover',
  'subscriptions/listen',
  'logging/setLevel',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/roots/list_changed',
]);

/** The HTTP side of a request to `/mcp/sources/{name}`: its method, its body (read only when a refusal is recorded), its peer. */
export interface SourceRequest {
  httpMethod: string;
  body: () => Promise<unknown>;
  clientAddress?: string;
}

/**
 * The door of `/mcp/sources/{name}`: every request, of every method and both protocol eras (GET
 * streams and DELETE included), passes it before anything else reads or serves it. A source that
 * does not exist, and one the caller may not use (decideSource, the access module's one decision),
 * get the same answer — HTTP 404, JSON-RPC -32001 "No source named …" — and nothing of the source
 * runs: no server instance, no upstream request, no plugin process.
 *
 * A refusal is recorded where refusals of its kind are: a `tools/call` as its execution, refused
 * (`rejected`, TOOL_NOT_ALLOWED with the rule) through ExecuteTool like every refused call; any other
 * request as a `source.access-refused` audit event (see RecordSourceRefusalHandler).
 */
@Injectable()
export class SourceGate {
  private readonly logger = new Logger('mcp-server');

  constructor(
    @Inject(CatalogSnapshots) private readonly catalog: CatalogSnapshots,
    @Inject(McpToolServers) private readonly servers: McpToolServers,
    @Inject(CommandBus) private readonly commands: CommandBus,
  ) {}

  /** Undefined when the request may go on; else the answer for a source that does not exist (a refusal recorded first). */
  async pass(exchange: McpExchange, request: SourceRequest): Promise<Response | undefined> {
    const { surface, principal } = exchange;
    if (surface.kind !== 'source') return undefined;
    const found = (await this.catalog.snapshot()).sourceFor(surface.source, principal.scope);
    if (found?.decision.allowed) return undefined;
    if (found) await this.record(exchange, request, found.source, found.decision).catch((error: unknown) => this.recordFailed(exchange, error));
    return unknownSource(surface.source);
  }

  private async record(exchange: McpExchange, request: SourceRequest, source: CatalogSource, decision: ScopeDecision): Promise<void> {
    const body = request.httpMethod === 'POST' ? await request.body() : undefined;
    const messages = Array.isArray(body) ? body : [body];
    for (const message of messages) {
      const call = refusedCall(message);
      if (call) {
        await this.servers.recordRefusedCall(exchange, call.name, call.arguments, call.meta, decision.rule);
        continue;
      }
      const method = isRecord(message) && typeof message.method === 'string' ? (NAMED_METHODS.has(message.method) ? message.method : 'other') : request.httpMethod;
      await this.commands.execute(
        new RecordSourceRefusalCommand({
          principalId: exchange.principal.id,
          sourceId: source.id,
          sourceName: source.name,
          endpoint: `/mcp/sources/${source.name}`,
          method,
          rule: decision.rule,
          ...(exchange.requestId !== undefined ? { requestId: exchange.requestId } : {}),
          ...(request.clientAddress !== undefined ? { clientAddress: request.clientAddress } : {}),
        }),
      );
    }
  }

  /** The refusal stands even when it cannot be written down: answering otherwise would tell the source exists. */
  private recordFailed(exchange: McpExchange, error: unknown): void {
    this.logger.warn({ msg: `a refused request could not be recorded: ${error instanceof Error ? error.message : String(error)}`, requestId: exchange.requestId });
  }
}

/** What a source that does not exist answers, whatever was asked. */
export function unknownSource(name: string): Response {
  return jsonRpcError(404, -32001, `No source named "${name.slice(0, 100)}"`, null);
}

/** A `tools/call` request naming a tool: the call a refusal is recorded as. */
function refusedCall(message: unknown): { name: string; arguments: unknown; meta: Record<string, unknown> } | undefined {
  if (!isRecord(message) || message.method !== 'tools/call' || message.id === undefined || message.id === null || !isRecord(message.params)) return undefined;
  const { name, arguments: args, _meta: meta } = message.params;
  if (typeof name !== 'string' || name.length === 0) return undefined;
  return { name, arguments: args, meta: isRecord(meta) ? meta : {} };
}
