import { Inject, Injectable } from '@nestjs/common';
import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { ProtocolError, ProtocolErrorCode, type Server, type ServerCapabilities, type ServerContext } from '@modelcontextprotocol/server';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { CatalogSnapshots } from '../catalog/application/catalog-snapshots.js';
import type { CatalogSource } from '../catalog/domain/catalog-snapshot.js';
import { RouteCache } from '../execution/application/route-cache.js';
import type { UpstreamTarget } from '../sources/domain/upstream.js';
import { CatalogChanged } from '../../shared/catalog-events.js';
import { DomainError } from '../../shared/domain-error.js';
import { UpstreamError } from '../../upstream/upstream-error.js';
import { UpstreamPrimitives, UpstreamRpcError, type PrimitiveCapabilities, type PrimitiveMethod } from '../../upstream/upstream-primitives.js';
import type { ServedEra } from './calls/call-result.js';
import type { McpCallRegistry } from './calls/mcp-call-registry.js';

/** The key under which a 2026-07-28 result names the server that answered: Toolplane, not the upstream. */
const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';

/** What a disabled source lists: nothing, as its tools/list. */
const EMPTY_LISTS: Partial<Record<PrimitiveMethod, Record<string, unknown>>> = {
  'prompts/list': { prompts: [] },
  'resources/list': { resources: [] },
  'resources/templates/list': { resourceTemplates: [] },
};

const PROMPT_METHODS = ['prompts/list', 'prompts/get'] as const;
const RESOURCE_METHODS = ['resources/list', 'resources/templates/list', 'resources/read'] as const;

/** Until the upstream's capabilities are known, both are offered and the upstream's answer is relayed. */
const UNKNOWN: PrimitiveCapabilities = { prompts: true, resources: true };

/**
 * The prompts and resources of `/mcp/sources/{name}`: relayed to the source's upstream over its
 * pooled connection, so that the endpoint answers as the upstream would. Requests and results pass
 * through as they came (cursors, unknown fields, an `input_required` answer and its continuation);
 * an upstream JSON-RPC error is relayed with its code, message and data. They are reads: not
 * executions, not recorded.
 *
 * The endpoint declares `prompts` / `resources` as the upstream declared them when it last
 * connected; before anything is known of it, both, and the upstream's `-32601` is what a caller of
 * a missing one gets. Neither `listChanged` nor `subscribe` is declared: those notifications are
 * not relayed.
 *
 * The source comes from the catalog's snapshot and its resolved target from RouteCache's targets,
 * as for a call: no cache of its own but the capabilities upstreams declared, which no reading of
 * the catalog holds (dropped when the source changes).
 */
@Injectable()
@EventsHandler(CatalogChanged)
export class SourcePrimitives implements IEventHandler<CatalogChanged> {
  private readonly known = new Map<string, { capabilities: PrimitiveCapabilities; sourceId: string }>();
  private readonly learning = new Set<string>();

  constructor(
    @Inject(CatalogSnapshots) private readonly catalog: CatalogSnapshots,
    @Inject(RouteCache) private readonly routes: RouteCache,
    @Inject(UpstreamPrimitives) private readonly primitives: UpstreamPrimitives,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The capabilities the source's endpoint declares besides tools. */
  capabilities(sourceName: string): Pick<ServerCapabilities, 'prompts' | 'resources'> {
    const known = this.known.get(sourceName)?.capabilities;
    if (!known) void this.learn(sourceName);
    const offered = known ?? UNKNOWN;
    return { ...(offered.prompts ? { prompts: {} } : {}), ...(offered.resources ? { resources: {} } : {}) };
  }

  /** Registers the relaying handlers for what `server` declares (an undeclared method stays -32601). */
  serve(server: Server, sourceName: string, principalId: string, era: ServedEra, calls: McpCallRegistry): void {
    const declared = server.getCapabilities();
    const methods = [...(declared.prompts ? PROMPT_METHODS : []), ...(declared.resources ? RESOURCE_METHODS : [])];
    for (const method of methods) {
      server.setRequestHandler(method, ((request: { params?: Record<string, unknown> }, ctx: ServerContext) =>
        this.relay(method, request.params, ctx, { sourceName, principalId, era, calls })) as never);
    }
  }

  handle(event: CatalogChanged): void {
    for (const [name, entry] of this.known) if (!event.sourceId || entry.sourceId === event.sourceId) this.known.delete(name);
  }

  private async relay(
    method: PrimitiveMethod,
    params: Record<string, unknown> | undefined,
    ctx: ServerContext,
    caller: { sourceName: string; principalId: string; era: ServedEra; calls: McpCallRegistry },
  ): Promise<Record<string, unknown>> {
    const source = await this.source(caller.sourceName).catch((error: unknown) => {
      throw toProtocolError(error);
    });
    if (source && !source.enabled) {
      const empty = EMPTY_LISTS[method];
      if (empty) return empty;
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `[SOURCE_DISABLED] Source "${source.name}" is disabled.`, { code: 'SOURCE_DISABLED' });
    }
    const target = source && (await this.target(source));
    if (!source || !target) throw new ProtocolError(-32001, `No source named "${caller.sourceName.slice(0, 100)}"`);
    // The caller leaving (stream closed, or a 2025-era notifications/cancelled) cancels upstream.
    const tracked = caller.calls.track(caller.principalId, ctx.mcpReq.id, ctx.mcpReq.signal);
    try {
      const answer = await this.primitives.request(target, method, upstreamParams(params, ctx), {
        timeoutMs: Math.min(source.timeoutMs, this.config.maxCallTimeoutMs),
        signal: tracked.signal,
      });
      this.known.set(source.name, { capabilities: answer.capabilities, sourceId: source.id });
      return served(answer.result, method, caller.era);
    } catch (error) {
      throw toProtocolError(error);
    } finally {
      tracked.done();
    }
  }

  /** The live source of this name, as the catalog's snapshot holds it. */
  private async source(sourceName: string): Promise<CatalogSource | undefined> {
    return (await this.catalog.snapshot()).sources.get(sourceName);
  }

  /** How to reach the source right now (references resolved), or undefined when it is gone. */
  private target(source: CatalogSource): Promise<UpstreamTarget | undefined> {
    return this.routes.target(source.id);
  }

  /** Connects (or reuses the pooled connection) once to learn what the upstream declares. */
  private async learn(sourceName: string): Promise<void> {
    if (this.learning.has(sourceName)) return;
    this.learning.add(sourceName);
    try {
      const source = await this.source(sourceName);
      const target = source?.enabled ? await this.target(source) : undefined;
      if (!source || !target) return;
      const capabilities = await this.primitives.capabilities(target, { timeoutMs: Math.min(source.timeoutMs, this.config.maxCallTimeoutMs) });
      this.known.set(source.name, { capabilities, sourceId: source.id });
    } catch {
      // Unknown stays unknown: both are offered and relayed.
    } finally {
      this.learning.delete(sourceName);
    }
  }
}

/**
 * The caller's params for the upstream: everything but `_meta` (the caller's envelope; Toolplane's
 * client sends its own), with the multi round-trip answers as the caller sent them.
 */
function upstreamParams(params: Record<string, unknown> | undefined, ctx: ServerContext): Record<string, unknown> {
  const { _meta: _envelope, ...rest } = params ?? {};
  const { inputResponses } = ctx.mcpReq;
  const requestState = ctx.mcpReq.requestState<unknown>();
  return {
    ...rest,
    ...(inputResponses !== undefined && Object.keys(inputResponses).length > 0 ? { inputResponses } : {}),
    ...(typeof requestState === 'string' ? { requestState } : {}),
  };
}

/** The upstream's result as the caller's era carries it, answered in Toolplane's name. */
function served(result: Record<string, unknown>, method: PrimitiveMethod, era: ServedEra): Record<string, unknown> {
  if (result.resultType === 'input_required' && era === 'legacy') {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `${method} needs more input from the user before it can answer (input_required), which only the 2026-07-28 protocol revision can carry; send it over 2026-07-28.`,
      { code: 'INPUT_REQUIRED' },
    );
  }
  const meta = result._meta;
  if (typeof meta !== 'object' || meta === null || !(SERVER_INFO_META_KEY in meta)) return result;
  const { [SERVER_INFO_META_KEY]: _upstreamServer, ...rest } = meta as Record<string, unknown>;
  return { ...result, _meta: rest };
}

/** A JSON-RPC error for the caller: the upstream's own, or one that says what went wrong without leaking more. */
function toProtocolError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (error instanceof UpstreamRpcError) return new ProtocolError(error.code, error.message, error.data);
  if (error instanceof UpstreamError) {
    const code = error.kind === 'timeout' ? 'UPSTREAM_TIMEOUT' : error.kind === 'aborted' ? 'CANCELLED' : error.kind === 'protocol' || error.kind === 'limit' ? 'UPSTREAM_PROTOCOL_ERROR' : 'UPSTREAM_UNAVAILABLE';
    return new ProtocolError(ProtocolErrorCode.InternalError, `[${code}] ${error.message}`, { code });
  }
  if (error instanceof DomainError) return new ProtocolError(ProtocolErrorCode.InternalError, `[${error.code}] ${error.message}`, { code: error.code });
  return new ProtocolError(ProtocolErrorCode.InternalError, 'Internal error');
}
