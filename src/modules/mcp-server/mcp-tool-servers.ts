import { isRecord } from '../../shared/is-record.js';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolRequest,
  type CallToolResult,
  type InputRequiredResult,
  type ListToolsResult,
  type ServerCapabilities,
  type ServerContext,
  type ServerOptions,
  type Tool,
} from '@modelcontextprotocol/server';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { ExecuteToolCommand, type ExecutedCall } from '../execution/application/execute-tool/execute-tool.command.js';
import type { ExecutionCaller, ExecutionRecord } from '../executions/domain/execution.js';
import { INPUT_REQUEST_CAPABILITY, type CallListeners, type InputRequest, type LogSubscription, type ProgressUpdate } from '../execution/domain/tool-invoker.port.js';
import { isLogLevel, refusal } from '../../upstream/upstream-call-relay.js';
import { TOOLPLANE_CLIENT_VERSION } from '../../upstream/client-info.js';
import { EXECUTION_META_KEY, toCallToolResult, type ServedEra } from './calls/call-result.js';
import type { CatalogSnapshot } from '../catalog/domain/catalog-snapshot.js';
import { exchangeOf } from './http/exchange-auth-info.js';
import { McpCallRegistry } from './calls/mcp-call-registry.js';
import { settleLegacyInputRequired } from './calls/legacy-input-required.js';
import { CatalogSnapshots } from '../catalog/application/catalog-snapshots.js';
import { GroupViews } from '../catalog/application/group-views.js';
import type { GroupView } from '../catalog/domain/group-view.js';
import { PrincipalConnections } from '../catalog/application/principal-connections.js';
import { notedDescription } from '../catalog/domain/connection-notes.js';
import { notedMcpTool, type McpTool as McpToolShape } from '../catalog/domain/tool-formats.js';
import type { Principal } from '../../shared/principal/principal.js';
import { SourcePrimitives } from './source-primitives.js';
import type { StatelessToolCall } from './calls/stateless-tool-call.js';
import { projectCallToolResult, type OutboundNotification, type ToolCallContext } from './calls/tool-call-context.js';
import { searchCatalog } from './gateway-search.js';
import type { McpExchange } from './mcp-exchange.js';
import { CallerDeparture, type CallerSignal } from '../../shared/caller-signal.js';
import { partitionPoint } from '../../shared/partition-point.js';
import { CallTasks } from '../execution/application/call-tasks.js';
import type { TaskState } from '../executions/application/task-state.js';
import { recordOfView } from '../executions/application/execution-view.js';
import { createTaskResult, taskViewOf } from './tasks/task-answers.js';
import { declaredTaskSupport, declaresTasksExtension, LEGACY_TASKS_CAPABILITY, TASKS_EXTENSION } from './tasks/task-wire.js';
import { callerTokenOf } from '../../shared/principal/caller-token.js';

/** How long a client may reuse a catalog tools/list (2026-07-28 `ttlMs`); subscribers hear of changes sooner. */
export const CATALOG_LIST_TTL_MS = 30_000;
/** The gateway's two meta-tools and every server/discover answer change only with a new release. */
const STATIC_TTL_MS = 3_600_000;
const DEFAULT_SEARCH_LIMIT = 10;
const MAX_SEARCH_LIMIT = 50;
/** The revision a 2025-era request without an `MCP-Protocol-Version` header is assumed to speak. */
const DEFAULT_LEGACY_VERSION = '2025-03-26';

export const SERVER_INFO = { name: 'toolplane', title: 'Toolplane', version: TOOLPLANE_CLIENT_VERSION };

/** The task mode of a caller that declares the 2026-07-28 tasks extension (see ToolCallContext.task). */
const CAPABLE = { mode: 'capable' } as const;

export const SEARCH_TOOLS = 'search_tools';
export const CALL_TOOL = 'call_tool';

const GATEWAY_TOOLS: Tool[] = [
  {
    name: SEARCH_TOOLS,
    title: 'Search tools',
    description:
      'Finds tools by what they do. Answers the best matches (name, description, inputSchema), best first; call one of them with call_tool.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What the tool should do, in a few words; matched against tool names, titles and descriptions.' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_LIMIT, description: `How many tools to answer at most (default ${DEFAULT_SEARCH_LIMIT}).` },
      },
      required: ['query'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        tools: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, title: { type: 'string' }, description: { type: 'string' }, inputSchema: { type: 'object' } },
            required: ['name', 'inputSchema'],
          },
        },
      },
      required: ['tools'],
    },
    annotations: { title: 'Search tools', readOnlyHint: true, openWorldHint: false },
  },
  {
    name: CALL_TOOL,
    title: 'Call a tool',
    description: "Calls a tool that search_tools found, by its name, with arguments matching that tool's inputSchema; answers the tool's own result.",
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The tool name, as search_tools answered it.' },
        arguments: { type: 'object', description: "The tool's arguments, matching its inputSchema.", additionalProperties: true },
      },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: { title: 'Call a tool', openWorldHint: true },
  },
];

const INSTRUCTIONS = {
  all: 'Every tool registered in Toolplane that you may use, named {source}__{tool}. Calls are validated, policed and recorded.',
  gateway: 'Tools are found on demand: call search_tools with what you need, then call_tool with the name it answers and the arguments its inputSchema asks for.',
} as const;

/** Server options by surface kind and era, built once: capabilities, instructions and cache hints. */
function serverOptions(
  kind: 'all' | 'gateway' | 'source' | 'group',
  era: ServedEra,
  instructions: string,
  /** A source's relayed prompts and resources, as its upstream declares them. */
  primitives: Pick<ServerCapabilities, 'prompts' | 'resources'> = {},
): ServerOptions {
  const listTtl = kind === 'gateway' ? STATIC_TTL_MS : CATALOG_LIST_TTL_MS;
  const relayedList = { ttlMs: CATALOG_LIST_TTL_MS, cacheScope: 'private' } as const;
  return {
    // listChanged reaches 2026-07-28 subscribers (subscriptions/listen) and 2025-era standalone streams.
    // Tool calls run as tasks on request: the 2025-11-25 capability, or the 2026-07-28 extension.
    capabilities: { tools: kind !== 'gateway' ? { listChanged: true } : {}, logging: {}, ...primitives, ...(era === 'legacy' ? { tasks: LEGACY_TASKS_CAPABILITY } : { extensions: { [TASKS_EXTENSION]: {} } }) },
    instructions,
    cacheHints: {
      'tools/list': { ttlMs: listTtl, cacheScope: 'private' },
      'server/discover': { ttlMs: STATIC_TTL_MS, cacheScope: 'private' },
      // Used only when the upstream's result carries no hints of its own.
      ...(primitives.prompts ? { 'prompts/list': relayedList } : {}),
      ...(primitives.resources ? { 'resources/list': relayedList, 'resources/templates/list': relayedList } : {}),
    },
  };
}

const OPTIONS: Record<'all' | 'gateway', Record<ServedEra, ServerOptions>> = {
  all: { legacy: serverOptions('all', 'legacy', INSTRUCTIONS.all), modern: serverOptions('all', 'modern', INSTRUCTIONS.all) },
  gateway: { legacy: serverOptions('gateway', 'legacy', INSTRUCTIONS.gateway), modern: serverOptions('gateway', 'modern', INSTRUCTIONS.gateway) },
};

/**
 * Builds the MCP server instance that answers one HTTP exchange. The SDK serves each stateless
 * exchange on an instance of its own (an instance still serving cannot take another), so the
 * instance is the low-level `Server` with two handlers over shared state: the catalog snapshot
 * with its projected tool definitions, and the CommandBus. No per-tool registration, schema
 * compilation or input validation happens here — ExecuteTool validates, polices and records.
 */
@Injectable()
export class McpToolServers {
  readonly calls = new McpCallRegistry();

  constructor(
    @Inject(CatalogSnapshots) private readonly catalog: CatalogSnapshots,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(SourcePrimitives) private readonly primitives: SourcePrimitives,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(GroupViews) private readonly groups: GroupViews,
    @Inject(CallTasks) private readonly tasks: CallTasks,
    @Inject(PrincipalConnections) private readonly connections: PrincipalConnections,
  ) {}

  create(exchange: McpExchange, era: ServedEra): Server {
    const { surface } = exchange;
    const options =
      surface.kind === 'source'
        ? serverOptions(
            'source',
            era,
            `The tools, prompts and resources of the "${surface.source}" source, under the names it gives them. Tool calls go through Toolplane: validated, policed and recorded.`,
            this.primitives.capabilities(surface.source),
          )
        : surface.kind === 'group'
          ? serverOptions('group', era, `The tools of the "${surface.group}" tool group. Tool calls go through Toolplane: validated, policed and recorded.`)
          : OPTIONS[surface.kind][era];
    const server = new Server(SERVER_INFO, options);
    server.setRequestHandler('tools/list', async (request, ctx) => this.listTools(exchangeOf(ctx.http?.authInfo) ?? exchange, request.params?.cursor));
    // A 2025-era session's server serves many requests: each call goes on its own request's exchange.
    server.setRequestHandler('tools/call', (request, ctx) => this.callTool(server, exchangeOf(ctx.http?.authInfo) ?? exchange, era, request, ctx));
    if (surface.kind === 'source') this.primitives.serve(server, surface.source, exchange.principal.id, era, this.calls);
    return server;
  }

  /** The tools of the endpoint that the caller may see (its principal's scope; the same rule refuses its calls). */
  private async listTools(exchange: McpExchange, cursor: string | undefined): Promise<ListToolsResult> {
    const { surface, principal } = exchange;
    if (surface.kind === 'gateway') return paginate(GATEWAY_TOOLS, cursor, this.config.mcpPageSize);
    const snapshot = await this.snapshot();
    // The catalog's MCP projection is the SDK's Tool: every field as the upstream declared it.
    if (surface.kind === 'all') {
      return this.noted(principal, paginate(snapshot.qualifiedTools(principal.scope) as Tool[], cursor, this.config.mcpPageSize), (name) => snapshot.byQualifiedName.get(name)?.source.id);
    }
    if (surface.kind === 'group') {
      const view = await this.groupView(surface.group);
      return this.noted(principal, paginate(view.mcpTools(principal.scope) as Tool[], cursor, this.config.mcpPageSize), (name) => view.byServedName.get(name)?.source.id);
    }
    const sourceId = snapshot.sources.get(surface.source)?.id;
    return this.noted(principal, paginate(snapshot.sourceTools(surface.source, principal.scope) as Tool[], cursor, this.config.mcpPageSize, 'as-listed'), () => sourceId);
  }

  /**
   * A page of tools with those its caller cannot call yet noted (the source wants the caller's own
   * credential first: `_meta["io.toolplane/connection"]` and a sentence in the description), from
   * one read of the caller's connections for the sources of the page.
   */
  private async noted(principal: Principal, page: ListToolsResult, sourceOf: (name: string) => string | undefined): Promise<ListToolsResult> {
    const sourceIds = new Set<string>();
    for (const tool of page.tools) {
      const id = sourceOf(tool.name);
      if (id !== undefined) sourceIds.add(id);
    }
    if (sourceIds.size === 0) return page;
    const missing = await this.connections.missingFor(principal, [...sourceIds]);
    if (missing.size === 0) return page;
    return {
      ...page,
      tools: page.tools.map((tool) => {
        const id = sourceOf(tool.name);
        return id === undefined ? tool : (notedMcpTool(tool as McpToolShape, missing.get(id)) as Tool);
      }),
    };
  }

  /** The catalog, or a JSON-RPC internal error that does not leak why it could not be read. */
  private async snapshot(): Promise<CatalogSnapshot> {
    try {
      return await this.catalog.snapshot();
    } catch {
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'The catalog cannot be read right now; try again shortly.');
    }
  }

  /** A group as the catalog serves it; a group removed since the request came in is a JSON-RPC error. */
  private async groupView(name: string): Promise<GroupView> {
    let view: GroupView | undefined;
    try {
      view = await this.groups.view(name);
    } catch {
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'The catalog cannot be read right now; try again shortly.');
    }
    if (!view) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No group named "${name.slice(0, 100)}"`);
    return view;
  }

  /**
   * A plain stateless `tools/call` on `/mcp`, `/mcp/sources/{name}` or `/mcp/groups/{name}`, served without an SDK server
   * instance (see recognizeStatelessToolCall); `send` hands a notification to the caller's answer
   * stream. Answers the result to encode for the call's era, or throws the JSON-RPC error.
   */
  async callStateless(exchange: McpExchange, call: StatelessToolCall, signal: CallerSignal, send: (notification: OutboundNotification) => Promise<void>): Promise<CallToolResult | InputRequiredResult> {
    const context: ToolCallContext = {
      era: call.era,
      id: call.id,
      signal,
      // Members assigned even when undefined, not spread in: this runs on every call.
      progressToken: call.progressToken,
      logLevel: call.logLevel,
      clientCapabilities: call.clientCapabilities,
      executionMeta: call.executionMeta,
      task: call.era === 'modern' && declaresTasksExtension(call.clientCapabilities) ? CAPABLE : undefined,
      caller: callerOf(exchange, { ...(call.clientInfo ?? exchange.session?.clientInfo), protocolVersion: call.protocolVersion }),
      notify: send,
      log: (message) => send({ method: 'notifications/message', params: { level: message.level, data: message.data, ...(message.logger !== undefined ? { logger: message.logger } : {}) } }),
      project: (result, outputSchema) => projectCallToolResult(call.era, result, outputSchema),
    };
    const first = await this.callCatalogTool(exchange, call.name, call.arguments, context);
    if (call.era === 'modern') return first;
    return settleLegacyInputRequired(first, context.signal, (requestState) => this.callCatalogTool(exchange, call.name, call.arguments, { ...context, requestState }));
  }

  /**
   * A `tools/call` refused at the door of a source its caller may not use (see SourceGate): recorded
   * through ExecuteTool as a call refused by the caller's scope, with the rule that refused it;
   * nothing reaches the source.
   */
  async recordRefusedCall(exchange: McpExchange, name: string, args: unknown, meta: Record<string, unknown>, rule: string): Promise<void> {
    const { surface } = exchange;
    if (surface.kind !== 'source') return;
    const snapshot = await this.catalog.snapshot().catch(() => undefined);
    const qualifiedName = snapshot?.sources.get(surface.source)?.byName.get(name)?.qualifiedName ?? `${surface.source}__${name}`;
    const info = meta[CLIENT_INFO_META_KEY] as { name?: unknown; version?: unknown } | undefined;
    const version = meta[PROTOCOL_VERSION_META_KEY] ?? exchange.session?.protocolVersion ?? exchange.protocolVersionHeader;
    const client: CallingClient = {
      ...exchange.session?.clientInfo,
      ...(typeof info?.name === 'string' ? { name: info.name } : {}),
      ...(typeof info?.version === 'string' ? { version: info.version } : {}),
      ...(typeof version === 'string' ? { protocolVersion: version } : {}),
    };
    await this.commands.execute(
      new ExecuteToolCommand(
        { qualifiedName: qualifiedName.slice(0, 200), arguments: args ?? {}, scope: exchange.principal.scope, sourceRefusal: rule, requestId: exchange.requestId },
        callerOf(exchange, client),
        'mcp',
      ),
    );
  }

  private async callTool(server: Server, exchange: McpExchange, era: ServedEra, request: CallToolRequest, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> {
    const { surface } = exchange;
    const { name } = request.params;
    const args = request.params.arguments;
    const context = sdkCallContext(server, exchange, era, request, ctx);
    if (surface.kind === 'gateway') {
      if (name === SEARCH_TOOLS) return this.search(exchange, args);
      if (name === CALL_TOOL) return this.callThroughGateway(exchange, args, context);
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 200)} (this endpoint offers ${SEARCH_TOOLS} and ${CALL_TOOL})`);
    }
    return this.callCatalogTool(exchange, name, args, context);
  }

  /** A tool of the catalog (`/mcp`), of one source (`/mcp/sources/{name}`) or of one group (`/mcp/groups/{name}`: ExecuteTool resolves its names), by the name the surface gives it. */
  private async callCatalogTool(exchange: McpExchange, name: string, args: Record<string, unknown> | undefined, context: ToolCallContext): Promise<CallToolResult | InputRequiredResult> {
    const { surface } = exchange;
    const qualifiedName = surface.kind === 'source' ? await this.qualifiedNameOf(surface.source, name) : name;
    const executed = await this.execute(exchange, qualifiedName, args, context);
    if ('task' in executed) return this.createdTask(context, executed.task);
    const { record, outputSchema } = executed;
    const result = toCallToolResult(record, name, { executionMeta: context.executionMeta, urlElicitation: takesUrlElicitation(context) });
    // Projected by the output schema of the definition the call ran.
    return isComplete(result) ? context.project(result, outputSchema ?? undefined) : result;
  }

  /**
   * The qualified name of a source's tool, by the name the source gives it: the snapshot maps the
   * names, the call itself does not depend on it. A tool it does not know (yet) is still tried under
   * its default qualified name.
   */
  private async qualifiedNameOf(source: string, name: string): Promise<string> {
    const snapshot = await this.catalog.snapshot().catch(() => undefined);
    return snapshot?.sources.get(source)?.byName.get(name)?.qualifiedName ?? `${source}__${name}`;
  }

  private async search(exchange: McpExchange, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    const query = args?.query;
    const limit = args?.limit ?? DEFAULT_SEARCH_LIMIT;
    if (typeof query !== 'string') return invalidArguments(SEARCH_TOOLS, 'query: must be a string');
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
      return invalidArguments(SEARCH_TOOLS, `limit: must be an integer from 1 to ${MAX_SEARCH_LIMIT}`);
    }
    return this.searchSnapshot(query.slice(0, 1000), limit, exchange.principal);
  }

  private async callThroughGateway(exchange: McpExchange, args: Record<string, unknown> | undefined, context: ToolCallContext): Promise<CallToolResult | InputRequiredResult> {
    const name = args?.name;
    const inner = args?.arguments ?? {};
    if (typeof name !== 'string' || name.length === 0) return invalidArguments(CALL_TOOL, 'name: must be a tool name that search_tools answered');
    if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) return invalidArguments(CALL_TOOL, 'arguments: must be an object');
    const executed = await this.execute(exchange, name, inner, context);
    if ('task' in executed) return this.createdTask(context, executed.task);
    const { record } = executed;
    const unknown = `[TOOL_NOT_FOUND] There is no tool named "${name.slice(0, 200)}"; use ${SEARCH_TOOLS} to find one.`;
    const result = toCallToolResult(record, name, { unknownToolText: unknown, executionMeta: context.executionMeta, urlElicitation: takesUrlElicitation(context) });
    return isComplete(result) ? context.project(result, undefined) : result;
  }

  /**
   * A 2025-11-25 `tools/call` that asks for a task (`params.task`), answered without an SDK server:
   * the call starts detached and its task is answered at once. Throws the JSON-RPC error for a tool
   * that does not run as a task, or a call that is not one of a tool.
   */
  async startTask(exchange: McpExchange, id: string | number, name: string, args: Record<string, unknown> | undefined, ttlMs: number | undefined): Promise<Record<string, unknown>> {
    const context: ToolCallContext = {
      era: 'legacy',
      id,
      signal: new CallerDeparture(),
      clientCapabilities: {},
      executionMeta: false,
      task: { mode: 'start', ...(ttlMs !== undefined ? { ttlMs } : {}) },
      caller: callerOf(exchange, { ...exchange.session?.clientInfo, protocolVersion: exchange.session?.protocolVersion ?? exchange.protocolVersionHeader ?? DEFAULT_LEGACY_VERSION }),
      notify: async () => undefined,
      log: async () => undefined,
      project: (result, outputSchema) => projectCallToolResult('legacy', result, outputSchema),
    };
    if (exchange.surface.kind === 'gateway') {
      if (name !== CALL_TOOL) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `${name.slice(0, 200)} does not run as a task (only ${CALL_TOOL} does on this endpoint)`);
      return this.callThroughGateway(exchange, args, context);
    }
    return this.callCatalogTool(exchange, name, args, context);
  }

  /** What a call that became a task answers, in the caller's era. */
  private createdTask(context: ToolCallContext, state: TaskState): CallToolResult {
    return createTaskResult(context.era, taskViewOf(state, this.config.executionRetentionMs)) as unknown as CallToolResult;
  }

  /** How the tool called under `qualifiedName` (a group's served name through a group) lets itself be run as a task, as its upstream declared it. */
  private async taskSupportOf(exchange: McpExchange, qualifiedName: string): Promise<ReturnType<typeof declaredTaskSupport>> {
    const { surface } = exchange;
    if (surface.kind === 'group') return declaredTaskSupport((await this.groups.view(surface.group).catch(() => undefined))?.byServedName.get(qualifiedName)?.definition);
    return declaredTaskSupport((await this.catalog.snapshot().catch(() => undefined))?.byQualifiedName.get(qualifiedName)?.definition);
  }

  /**
   * Runs the call as its context says (see ToolCallContext.task): as a task from the start (the
   * caller asked for one), until it waits for approval, outlives TOOLPLANE_TASK_AFTER_MS or its
   * upstream makes it a task (a caller that can use tasks), or in its request. A 2026-07-28 caller
   * without the tasks extension is refused a tool that runs only as a task (-32021); a 2025-11-25
   * caller gets its result, Toolplane running the upstream task. A call that waits for approval
   * holds a caller that cannot use tasks until its final record, relaying its progress meanwhile.
   */
  private async execute(exchange: McpExchange, qualifiedName: string, args: unknown, context: ToolCallContext): Promise<ExecutedCall | { task: TaskState }> {
    // The caller leaving (stream closed, or notifications/cancelled) cancels the call upstream.
    const tracked = this.calls.trackCall(exchange.principal.id, context.id, context.signal);
    const notifications = callerNotifications(context);
    const executionId = exchange.executionIdTaken ? undefined : exchange.executionId;
    exchange.executionIdTaken = true;
    try {
      const command = new ExecuteToolCommand(
          {
            // Members assigned even when undefined, not spread in: this runs on every call.
            executionId,
            qualifiedName,
            group: exchange.surface.kind === 'group' ? exchange.surface.group : undefined,
            arguments: args ?? {},
            inputResponses: context.inputResponses,
            requestState: context.requestState,
            clientCapabilities: context.clientCapabilities,
            scope: exchange.principal.scope || undefined,
            rateLimitPerMinute: exchange.principal.rateLimitPerMinute,
            requestId: exchange.requestId,
            callerToken: callerTokenOf(exchange.principal),
          },
          context.caller,
          'mcp',
          tracked.signal,
          { ...notifications.listeners, ...(context.ask ? { onInputRequest: context.ask } : {}) },
        );
      let executed: ExecutedCall | undefined;
      if (context.task) {
        const support = await this.taskSupportOf(exchange, qualifiedName);
        if (context.task.mode === 'start') {
          if (support === 'forbidden') throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `${qualifiedName.slice(0, 200)} does not run as a task (its execution.taskSupport is "forbidden")`);
          return { task: await this.tasks.start(detached(command), context.task.ttlMs === undefined ? {} : { ttlMs: context.task.ttlMs }) };
        }
        if (support !== 'forbidden') {
          // A call its upstream runs as a task (a 2025-11-25 tool that declares it may, or a 2026-07-28
          // server that decides so) becomes one here when the upstream makes it one: the rounds of
          // input a 2026-07-28 server may ask for first are answered in the request.
          const outcome = await this.tasks.runOrTask(command, { ...(this.config.taskAfterMs === null ? {} : { taskAfterMs: this.config.taskAfterMs }), whenUpstreamTask: true });
          if ('task' in outcome) return outcome;
          executed = outcome.executed;
        }
      } else if (context.era === 'modern' && (await this.taskSupportOf(exchange, qualifiedName)) === 'required') {
        // SEP-2663: a tool that must run as a task is refused to a caller that cannot take one.
        throw new ProtocolError(ProtocolErrorCode.MissingRequiredClientCapability, `${qualifiedName.slice(0, 200)} runs only as a task: declare the ${TASKS_EXTENSION} extension in the request's client capabilities`, {
          requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
        });
      }
      executed ??= await this.commands.execute(command);
      if (executed.waiting) executed = { ...executed, record: await this.awaitHeld(exchange, executed.record.id, tracked.signal, notifications.listeners) };
      await notifications.flush();
      return executed;
    } finally {
      tracked.done();
    }
  }

  /**
   * A call held for approval, for a caller that cannot use tasks: its final record, its progress and
   * log messages relayed as they come (from this process); the caller leaving cancels it.
   */
  private async awaitHeld(exchange: McpExchange, id: string, signal: CallerSignal, listeners: CallerNotifications['listeners']): Promise<ExecutionRecord> {
    const principalId = exchange.principal.id;
    const gone = new AbortController();
    const leave = () => {
      gone.abort(signal.reason);
      void this.tasks.cancel(id, principalId).catch(() => undefined);
    };
    if (signal.aborted) leave();
    else signal.addEventListener('abort', leave, { once: true });
    const events = this.tasks.events(id);
    let relaying = events !== undefined;
    const relay = (async () => {
      if (!events) return;
      for await (const event of events) {
        if (!relaying) break;
        if (event.kind === 'progress') listeners.onProgress?.({ progress: event.progress, ...(event.total !== undefined ? { total: event.total } : {}), ...(event.message !== undefined ? { message: event.message } : {}) });
        else if (event.kind === 'log' && isLogLevel(event.level)) listeners.log?.onMessage({ level: event.level, data: event.data, ...(event.logger !== undefined ? { logger: event.logger } : {}) });
      }
    })().catch(() => undefined);
    try {
      return recordOfView(await this.tasks.awaitFinal(id, principalId, gone.signal));
    } finally {
      relaying = false;
      signal.removeEventListener('abort', leave);
      void relay;
    }
  }

  private async searchSnapshot(query: string, limit: number, principal: Principal): Promise<CallToolResult> {
    const snapshot = await this.snapshot();
    const found = searchCatalog(snapshot, query, limit, principal.scope);
    // A tool its caller cannot call yet says so in its description (the hits' shape has no _meta).
    const sourceOf = (name: string) => snapshot.byQualifiedName.get(name)?.source.id;
    const sourceIds = [...new Set(found.map((hit) => sourceOf(hit.name)).filter((id): id is string => id !== undefined))];
    const missing = sourceIds.length === 0 ? undefined : await this.connections.missingFor(principal, sourceIds);
    const tools = !missing?.size
      ? found
      : found.map((hit) => {
          const note = missing.get(sourceOf(hit.name) ?? '');
          return note ? { ...hit, description: notedDescription(hit.description, note) } : hit;
        });
    return { content: [{ type: 'text', text: JSON.stringify({ tools }) }], structuredContent: { tools } };
  }
}

interface CallerNotifications {
  listeners: Pick<CallListeners, 'onProgress' | 'log'>;
  /** Resolves once every relayed notification has been handed to the transport (before the result is). */
  flush: () => Promise<void>;
}

/**
 * What of the upstream's notifications reach the caller, in the order they came and all before the
 * result, which ends the stream:
 *
 * - progress, re-tagged with the caller's progress token when it gave one, never backwards (a
 *   retried attempt starts over);
 * - log messages, at the level the caller listens at (see ToolCallContext.logLevel).
 */
function callerNotifications(context: ToolCallContext): CallerNotifications {
  let chain: Promise<void> = Promise.resolve();
  const send = (notify: () => Promise<void>) => {
    chain = chain.then(notify).catch(() => undefined);
  };
  const token = context.progressToken;
  let last = -Infinity;
  const onProgress = (update: ProgressUpdate) => {
    if (!(update.progress > last)) return;
    last = update.progress;
    const params = {
      progressToken: token!,
      progress: update.progress,
      ...(update.total !== undefined ? { total: update.total } : {}),
      ...(update.message !== undefined ? { message: update.message } : {}),
    };
    send(() => context.notify({ method: 'notifications/progress', params }));
  };
  const level = context.logLevel;
  const log: LogSubscription | undefined = level ? { level, onMessage: (message) => send(() => context.log(message)) } : undefined;
  const listeners: CallListeners = {};
  if (token !== undefined) listeners.onProgress = onProgress;
  if (log) listeners.log = log;
  return { listeners, flush: () => chain };
}

/**
 * A 2025-11-25 (or later 2025-era) caller that declared URL-mode elicitation: it is answered a
 * URLElicitationRequiredError (-32042). The 2026-07-28 revision has no such error.
 */
function takesUrlElicitation(context: ToolCallContext): boolean {
  const elicitation = context.clientCapabilities.elicitation;
  const version = context.caller.protocolVersion;
  return context.era === 'legacy' && version !== undefined && version >= '2025-11-25' && isRecord(elicitation) && isRecord(elicitation.url);
}

/** The call context of a request the SDK serves (its per-exchange server and handler context). */
function sdkCallContext(server: Server, exchange: McpExchange, era: ServedEra, request: CallToolRequest, ctx: ServerContext): ToolCallContext {
  const { mcpReq } = ctx;
  const requestState = mcpReq.requestState<unknown>();
  const envelope = (mcpReq.envelope ?? {}) as Record<string, unknown>;
  // A 2025-era caller hears every level: the SDK's log() applies what its session set.
  const logLevel = era === 'modern' ? envelope[LOG_LEVEL_META_KEY] : 'debug';
  const progressToken = request.params._meta?.progressToken;
  return {
    era,
    id: mcpReq.id,
    signal: mcpReq.signal,
    ...(progressToken !== undefined ? { progressToken } : {}),
    ...(isLogLevel(logLevel) ? { logLevel } : {}),
    ...(mcpReq.inputResponses !== undefined ? { inputResponses: mcpReq.inputResponses } : {}),
    ...(typeof requestState === 'string' ? { requestState } : {}),
    clientCapabilities: callerCapabilities(server, era, ctx),
    executionMeta: request.params._meta?.[EXECUTION_META_KEY] === true,
    caller: callerOf(exchange, clientOf(server, era, envelope, exchange)),
    ...(era === 'modern' && declaresTasksExtension(envelope[CLIENT_CAPABILITIES_META_KEY]) ? { task: CAPABLE } : {}),
    // Only a session can carry a server-to-client request back to its client.
    ...(era === 'legacy' && ctx.sessionId !== undefined ? { ask: (request: InputRequest) => askSessionClient(server, ctx, request) } : {}),
    notify: (notification) => mcpReq.notify(notification as Parameters<typeof mcpReq.notify>[0]),
    log: (message) => mcpReq.log(message.level, message.data, message.logger),
    project: (result, outputSchema) => server.projectCallToolResult(result, outputSchema),
  };
}

/** A 2025-era upstream's request for input, put to the session's client when it declared the capability for it. */
function askSessionClient(server: Server, ctx: ServerContext, request: InputRequest): Promise<Record<string, unknown>> {
  const declared = (server.getClientCapabilities() ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const kind = INPUT_REQUEST_CAPABILITY[request.method];
  const urlMode = kind === 'elicitation' && request.params.mode === 'url';
  if (!declared[kind] || (urlMode && !declared.elicitation?.url)) {
    return Promise.reject(refusal(request, `the caller did not declare the ${urlMode ? 'URL elicitation' : kind} capability`));
  }
  const send = ctx.mcpReq.send as (request: { method: string; params: Record<string, unknown> }) => Promise<Record<string, unknown>>;
  return send({ method: request.method, params: request.params });
}

/**
 * What the caller declared it can answer: the 2026-07-28 request's envelope, or what a 2025-era
 * client declared in `initialize` on its session (nothing is known of a sessionless one).
 */
function callerCapabilities(server: Server, era: ServedEra, ctx: ServerContext): Record<string, unknown> {
  const declared = era === 'modern' ? ((ctx.mcpReq.envelope ?? {}) as Record<string, unknown>)[CLIENT_CAPABILITIES_META_KEY] : server.getClientCapabilities();
  return typeof declared === 'object' && declared !== null && !Array.isArray(declared) ? (declared as Record<string, unknown>) : {};
}

/** What the client says about itself: the 2026-07-28 envelope, or a 2025-era session's initialize (else the version header). */
function clientOf(server: Server, era: ServedEra, envelope: Record<string, unknown>, exchange: McpExchange): CallingClient {
  if (era === 'modern') {
    const info = envelope[CLIENT_INFO_META_KEY] as { name?: unknown; version?: unknown } | undefined;
    const version = envelope[PROTOCOL_VERSION_META_KEY];
    return {
      ...(typeof info?.name === 'string' ? { name: info.name } : {}),
      ...(typeof info?.version === 'string' ? { version: info.version } : {}),
      ...(typeof version === 'string' ? { protocolVersion: version } : {}),
    };
  }
  // A stateless 2025-era exchange has no initialize of its own: its session id carries the client's.
  const client = server.getClientVersion() ?? exchange.session?.clientInfo;
  return {
    ...(client?.name ? { name: client.name } : {}),
    ...(client?.version ? { version: client.version } : {}),
    protocolVersion: server.getNegotiatedProtocolVersion() ?? exchange.session?.protocolVersion ?? exchange.protocolVersionHeader ?? DEFAULT_LEGACY_VERSION,
  };
}

interface CallingClient {
  name?: string;
  version?: string;
  protocolVersion?: string;
}

/** Who calls: the principal, and what the client says about itself (its user agent when it names itself nowhere else). */
function callerOf(exchange: McpExchange, client: CallingClient): ExecutionCaller {
  const caller: ExecutionCaller = { principalId: exchange.principal.id, principalName: exchange.principal.name };
  if (exchange.correlationId) caller.correlationId = clip(exchange.correlationId);
  if (client.name) caller.clientName = clip(client.name);
  else if (exchange.userAgent) caller.clientName = clip(exchange.userAgent);
  if (client.version) caller.clientVersion = clip(client.version);
  if (client.protocolVersion) caller.protocolVersion = clip(client.protocolVersion);
  return caller;
}

/**
 * One page of a list, in name order (`/mcp`, the gateway) or as the source's upstream lists its
 * tools (`/mcp/sources/{name}`). The cursor (opaque to clients) names the last tool served: a list
 * in name order goes on after that name; one in the upstream's order after that tool, or — when it
 * is gone since — by the place the cursor also records.
 */
export function paginate(tools: readonly Tool[], cursor: string | undefined, pageSize: number, order: 'by-name' | 'as-listed' = 'by-name'): ListToolsResult {
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  const start = after === undefined ? 0 : order === 'by-name' ? firstAfter(tools, after.name) : nextListed(tools, after);
  const page = tools.slice(start, start + pageSize);
  if (start + pageSize >= tools.length) return { tools: page };
  const next: PageCursor = order === 'by-name' ? { after: page.at(-1)!.name } : { after: page.at(-1)!.name, next: start + page.length };
  return { tools: page, nextCursor: Buffer.from(JSON.stringify(next)).toString('base64url') };
}

interface PageCursor {
  after: string;
  /** In the upstream's order: the place of the next page. */
  next?: number;
}

/** Where a list in the upstream's order goes on after the named tool (gone since: one place up from where the next page was). */
function nextListed(tools: readonly Tool[], after: { name: string; next?: number }): number {
  const index = tools.findIndex((tool) => tool.name === after.name);
  return index >= 0 ? index + 1 : Math.min(Math.max(0, (after.next ?? 0) - 1), tools.length);
}

/** Index of the first tool named after `name` (binary search: the list is in name order). */
function firstAfter(tools: readonly Tool[], name: string): number {
  return partitionPoint(tools, (tool) => tool.name > name);
}

function decodeCursor(cursor: string): { name: string; next?: number } {
  try {
    if (cursor.length > 512 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('malformed');
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { after?: unknown; next?: unknown };
    if (typeof parsed?.after !== 'string') throw new Error('malformed');
    if (parsed.next === undefined) return { name: parsed.after };
    if (typeof parsed.next !== 'number' || !Number.isSafeInteger(parsed.next) || parsed.next < 0) throw new Error('malformed');
    return { name: parsed.after, next: parsed.next };
  } catch {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor: not one this endpoint issued');
  }
}

/** The call as a task runs it: detached from the request, its notifications told to the task's followers only. */
function detached(command: ExecuteToolCommand): ExecuteToolCommand {
  return new ExecuteToolCommand(command.input, command.caller, command.channel);
}

function invalidArguments(tool: string, problem: string): CallToolResult {
  return { content: [{ type: 'text', text: `[INVALID_ARGUMENTS] The arguments of ${tool} are invalid.\n- ${problem}` }], isError: true };
}

function isComplete(result: CallToolResult | InputRequiredResult): result is CallToolResult {
  return (result as InputRequiredResult).resultType !== 'input_required';
}

function clip(value: string): string {
  return value.slice(0, 200);
}
