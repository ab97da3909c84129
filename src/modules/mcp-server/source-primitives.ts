import { Inject, Injectable } from '@nestjs/common';
import { EventsHandler, IEventHandler, QueryBus } from '@nestjs/cqrs';
import { ProtocolError, ProtocolErrorCode, type Server, type ServerCapabilities, type ServerContext } from '@modelcontextprotocol/server';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { GetSourceUpstreamQuery, type SourceUpstream } from '../sources/application/get-source-upstream/get-source-upstream.query.js';
import { CatalogChanged } from '../../shared/catalog-events.js';
import { DomainError } from '../../shared/domain-error.js';
import { UpstreamError } from '../../upstream/upstream-error.js';
import { UpstreamPrimitives, UpstreamRpcError, type PrimitiveCapabilities, type PrimitiveMethod } from '../../upstream/upstream-primitives.js';
import type { ServedEra } from './calls/call-result.js';
import type { McpCallRegistry } from './calls/mcp-call-registry.js';

/** How long a source's resolved upstream is reused before it is read again (changes made by other processes). */
const UPSTREAM_TTL_MS = 2000;
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

interface Cached<T> {
  value: T;
  sourceId?: string;
  expiresAt: number;
}

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
 */
@Injectable()
@EventsHandler(CatalogChanged)
export class SourcePrimitives implements IEventHandler<CatalogChanged> {
  private readonly upstreams = new Map<string, Cached<Promise<SourceUpstream | undefined>>>();
  private readonly known = new Map<string, { capabilities: PrimitiveCapabilities; sourceId: string }>();
  private readonly learning = new Set<string>();

  constructor(
    @Inject(QueryBus) private readonly queries: QueryBus,
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
    for (const [name, entry] of this.upstreams) if (!event.sourceId || entry.sourceId === event.sourceId || entry.sourceId === undefined) this.upstreams.delete(name);
    for (const [name, entry] of this.known) if (!event.sourceId || entry.sourceId === event.sourceId) this.known.delete(name);
  }

  private async relay(
    method: PrimitiveMethod,
    params: Record<string, unknown> | undefined,
    ctx: ServerContext,
    caller: { sourceName: string; principalId: string; era: ServedEra; calls: McpCallRegistry },
  ): Promise<Record<string, unknown>> {
    const upstream = await this.upstream(caller.sourceName).catch((error: unknown) => {
      throw toProtocolError(error);
    });
    if (!upstream) throw new ProtocolError(-32001, `No source named "${caller.sourceName.slice(0, 100)}"`);
    if (!upstream.enabled) {
      const empty = EMPTY_LISTS[method];
      if (empty) return empty;
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `[SOURCE_DISABLED] Source "${upstream.name}" is disabled.`, { code: 'SOURCE_DISABLED' });
    }
    // The caller leaving (stream closed, or a 2025-era notifications/cancelled) cancels upstream.
    const tracked = caller.calls.track(caller.principalId, ctx.mcpReq.id, ctx.mcpReq.signal);
    try {
      const answer = await this.primitives.request(upstream.target, method, upstreamParams(params, ctx), {
        timeoutMs: Math.min(upstream.timeoutMs, this.config.maxCallTimeoutMs),
        signal: tracked.signal,
      });
      this.known.set(upstream.name, { capabilities: answer.capabilities, sourceId: upstream.sourceId });
      return served(answer.result, method, caller.era);
    } catch (error) {
      throw toProtocolError(error);
    } finally {
      tracked.done();
    }
  }

  private upstream(sourceName: string): Promise<SourceUpstream | undefined> {
    const now = Date.now();
    const hit = this.upstreams.get(sourceName);
    if (hit && hit.expiresAt > now) return hit.value;
    const value = this.queries.execute(new GetSourceUpstreamQuery(sourceName));
    const entry: Cached<Promise<SourceUpstream | undefined>> = { value, expiresAt: now + UPSTREAM_TTL_MS };
    value.then(
      (upstream) => (entry.sourceId = upstream?.sourceId),
      () => this.upstreams.get(sourceName) === entry && this.upstreams.delete(sourceName),
    );
    if (this.upstreams.size > 1000) this.upstreams.clear();
    this.upstreams.set(sourceName, entry);
    return value;
  }

  /** Connects (or reuses the pooled connection) once to learn what the upstream declares. */
  private async learn(sourceName: string): Promise<void> {
    if (this.learning.has(sourceName)) return;
    this.learning.add(sourceName);
    try {
      const upstream = await this.upstream(sourceName);
      if (!upstream?.enabled) return;
      const capabilities = await this.primitives.capabilities(upstream.target, { timeoutMs: Math.min(upstream.timeoutMs, this.config.maxCallTimeoutMs) });
      this.known.set(upstream.name, { capabilities, sourceId: upstream.sourceId });
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
