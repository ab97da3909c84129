import { FixedClock } from '../../../shared/testing/fixed-clock.js';
import { RecordingWorkMetrics } from '../../../shared/testing/recording-work-metrics.js';
import { CatalogChanged } from '../../../shared/catalog-events.js';
import { CatalogSnapshots } from '../../catalog/application/catalog-snapshots.js';
import { GroupViews } from '../../catalog/application/group-views.js';
import { GroupDefinitions } from '../../groups/application/group-definitions.js';
import type { Group } from '../../groups/domain/group.js';
import { InMemoryGroupRepository } from '../../groups/testing/in-memory-group-repository.js';
import { GroupsChanged } from '../../../shared/catalog-events.js';
import { InMemoryCatalogReader } from '../../catalog/testing/in-memory-catalog-reader.js';
import { loadConfig, type AppConfig } from '../../../config/app-config.js';
import type { CallerSignal } from '../../../shared/caller-signal.js';
import { CircuitBreakers } from '../../sources/application/circuit-breakers.js';
import type { ExecutionCaller, ExecutionChannel } from '../../executions/domain/execution.js';
import { Bulkheads } from '../application/bulkheads.js';
import { Call } from '../application/execute-tool/call.js';
import { ExecuteToolCommand, type ExecuteToolInput, type ExecutedCall } from '../application/execute-tool/execute-tool.command.js';
import { ExecuteToolHandler } from '../application/execute-tool/execute-tool.handler.js';
import { AdmitStage } from '../application/execute-tool/stages/admit.js';
import type { CallInterceptors } from '../application/execute-tool/stages/call-stage.js';
import { InterceptArgumentsStage } from '../application/execute-tool/stages/intercept-arguments.js';
import { InterceptResultStage } from '../application/execute-tool/stages/intercept-result.js';
import type { InterceptorChain } from '../../interceptors/application/interceptor-chain.js';
import { GuardStage } from '../application/execute-tool/stages/guard.js';
import { GroupArgumentsStage } from '../application/execute-tool/stages/group-arguments.js';
import { IntakeStage } from '../application/execute-tool/stages/intake.js';
import { InvokeStage } from '../application/execute-tool/stages/invoke.js';
import { LocateUpstreamStage } from '../application/execute-tool/stages/locate-upstream.js';
import { AttachCredentialStage } from '../application/execute-tool/stages/attach-credential.js';
import { UpstreamCredentials } from '../../sources/application/upstream-credentials.js';
import type { ModeCredentials } from '../../sources/domain/upstream-credentials.js';
import type { SourceRepository } from '../../sources/domain/source.repository.js';
import type { UpstreamTargetResolver } from '../../sources/application/upstream-target-resolver.js';
import { PrepareArgumentsStage } from '../application/execute-tool/stages/prepare-arguments.js';
import { RecordOutcomeStage } from '../application/execute-tool/stages/record-outcome.js';
import { RecordStartStage } from '../application/execute-tool/stages/record-start.js';
import { ReportStage } from '../application/execute-tool/stages/report.js';
import { ResolveStage } from '../application/execute-tool/stages/resolve.js';
import { ParkStage } from '../application/execute-tool/stages/park.js';
import type { HeldCalls } from '../application/execute-tool/stages/call-stage.js';
import { InMemoryExecutionTasks } from '../../executions/testing/in-memory-execution-tasks.js';
import { InFlightCalls } from '../application/in-flight-calls.js';
import { RateLimits } from '../application/rate-limits.js';
import { RouteCache } from '../application/route-cache.js';
import type { CallListeners } from '../domain/tool-invoker.port.js';
import type { ToolRoute } from '../application/tool-route.js';
import type { KnownSecret } from '../../../shared/secret-scrubber.js';
import { FakeArgumentValidator } from './fake-argument-validator.js';
import { FakeExecutionRecorder } from './fake-execution-recorder.js';
import { FakeRateBuckets } from './fake-rate-buckets.js';
import { FakeToolInvoker } from './fake-tool-invoker.js';
import { FakeUpstreamTargets } from './fake-upstream-targets.js';
import { aTarget, inCatalog } from './routes.js';

export interface CallOptions {
  caller?: ExecutionCaller;
  channel?: ExecutionChannel;
  signal?: CallerSignal;
  listeners?: CallListeners;
}

export const CALLER: ExecutionCaller = { principalId: 'key-1', principalName: 'agent' };

/**
 * ExecuteTool as the module builds it — every stage, the route cache, rate limits, circuits and
 * bulkheads — over in-memory fakes of its ports (no database, no network), for specs and the
 * stage benchmark. `timeline` shows in what order the fakes were reached.
 */
export class ExecuteToolHarness {
  readonly timeline: string[] = [];
  readonly config: AppConfig;
  readonly clock = new FixedClock();
  readonly reader = new InMemoryCatalogReader();
  /** The routes given to withTool, which specs may change and then announce with catalogChanged. */
  private readonly tools: ToolRoute[] = [];
  readonly snapshots = new CatalogSnapshots(this.reader);
  /** The stored tool groups, which withGroup adds to. */
  readonly groupRepository = new InMemoryGroupRepository();
  readonly groupDefinitions = new GroupDefinitions(this.groupRepository);
  readonly groups = new GroupViews(this.snapshots, this.groupDefinitions);
  readonly targets = new FakeUpstreamTargets();
  readonly validator = new FakeArgumentValidator();
  readonly invoker = new FakeToolInvoker();
  readonly recorder = new FakeExecutionRecorder(this.timeline);
  readonly buckets = new FakeRateBuckets();
  readonly metrics = new RecordingWorkMetrics();
  readonly routes: RouteCache;
  readonly circuits: CircuitBreakers;
  readonly bulkheads: Bulkheads;
  readonly inFlight = new InFlightCalls();
  /** The tasks of calls that outlive their request (held calls park theirs here). */
  readonly tasks = new InMemoryExecutionTasks();
  readonly stages: {
    resolve: ResolveStage;
    intake: IntakeStage;
    admit: AdmitStage;
    groupArguments: GroupArgumentsStage;
    prepareArguments: PrepareArgumentsStage;
    guard: GuardStage;
    locateUpstream: LocateUpstreamStage;
    attachCredential: AttachCredentialStage;
    recordStart: RecordStartStage;
    invoke: InvokeStage;
    recordOutcome: RecordOutcomeStage;
    report: ReportStage;
    park: ParkStage;
  };
  /** The interceptors' stages, when built over `interceptorChain`. */
  readonly interceptorStages: { interceptArguments: InterceptArgumentsStage; interceptResult: InterceptResultStage } | undefined;
  readonly handler: ExecuteToolHandler;

  /**
   * `interceptors`: stages for the seam; `interceptorChain`: the interceptors' stages over this chain,
   * as ExecutionModule plugs them (with the harness's validator).
   */
  /** The per-user credentials of the calls, by the modes given as `modeCredentials`. */
  readonly credentials: UpstreamCredentials;

  constructor(
    options: { config?: Partial<AppConfig>; interceptors?: CallInterceptors; interceptorChain?: InterceptorChain; heldCalls?: HeldCalls; modeCredentials?: ModeCredentials[] } = {},
  ) {
    this.config = { ...loadConfig({}), ...options.config };
    this.routes = new RouteCache(this.snapshots, this.targets);
    this.circuits = new CircuitBreakers(this.metrics);
    this.bulkheads = new Bulkheads(this.config, this.metrics);
    // Only forCall and afterUnauthorized are reached from a call: the source store and resolver serve discovery.
    this.credentials = new UpstreamCredentials(undefined as unknown as SourceRepository, undefined as unknown as UpstreamTargetResolver, options.modeCredentials ?? []);
    this.stages = {
      resolve: new ResolveStage(this.routes, this.groups),
      intake: new IntakeStage(this.inFlight),
      admit: new AdmitStage(new RateLimits(this.buckets)),
      groupArguments: new GroupArgumentsStage(),
      prepareArguments: new PrepareArgumentsStage(this.validator),
      guard: new GuardStage(this.circuits, this.bulkheads, this.config, this.clock),
      locateUpstream: new LocateUpstreamStage(this.routes),
      attachCredential: new AttachCredentialStage(this.credentials),
      recordStart: new RecordStartStage(this.recorder),
      invoke: new InvokeStage(this.invoker, this.config, this.clock, this.tasks, this.credentials),
      recordOutcome: new RecordOutcomeStage(this.recorder, this.config),
      report: new ReportStage(this.metrics),
      park: new ParkStage(this.tasks, this.clock, this.routes, options.heldCalls),
    };
    const s = this.stages;
    const chain = options.interceptorChain;
    this.interceptorStages = chain ? { interceptArguments: new InterceptArgumentsStage(chain, this.validator), interceptResult: new InterceptResultStage(chain) } : undefined;
    this.handler = new ExecuteToolHandler(
      s.resolve,
      s.intake,
      s.admit,
      s.groupArguments,
      s.prepareArguments,
      s.guard,
      s.locateUpstream,
      s.attachCredential,
      s.recordStart,
      s.invoke,
      s.recordOutcome,
      s.report,
      s.park,
      this.inFlight,
      this.clock,
      this.interceptorStages ? { pre: [this.interceptorStages.interceptArguments], post: [this.interceptorStages.interceptResult] } : options.interceptors,
    );
    this.invoker.onInvoke = () => this.timeline.push('invoked');
  }

  /** Makes a tool callable: its route, and a target for its source with these secrets. */
  withTool(route: ToolRoute, secrets: readonly KnownSecret[] = []): this {
    this.addToCatalog(route);
    if (!this.targets.targets.has(route.source.id)) this.targets.add(aTarget(route, secrets));
    return this;
  }

  /** Stores a tool group (replacing one of its name) and tells the views it changed. */
  withGroup(group: Group): this {
    void this.groupRepository.insert(group);
    this.groupDefinitions.handle(new GroupsChanged(group.name));
    return this;
  }

  /** Stores a tool's route in the catalog, without a target for its source. */
  addToCatalog(route: ToolRoute): this {
    this.tools.push(route);
    const { source, tool } = inCatalog(route);
    this.reader.add(source, tool);
    return this;
  }

  /** Stores the tools' routes as they are now, and tells the caches the catalog changed (of one source, or all). */
  catalogChanged(sourceId?: string): void {
    for (const route of this.tools) {
      const { source, tool } = inCatalog(route);
      this.reader.add(source, tool);
    }
    const event = new CatalogChanged(sourceId);
    this.snapshots.handle(event);
    this.routes.handle(event);
  }

  /** Runs one call through ExecuteTool. */
  call(input: Partial<ExecuteToolInput> & { qualifiedName: string }, options: CallOptions = {}): Promise<ExecutedCall> {
    return this.handler.execute(this.command(input, options));
  }

  command(input: Partial<ExecuteToolInput> & { qualifiedName: string }, options: CallOptions = {}): ExecuteToolCommand {
    return new ExecuteToolCommand({ arguments: { message: 'hello' }, ...input }, options.caller ?? CALLER, options.channel ?? 'rest', options.signal, options.listeners);
  }

  /** A call as a stage sees it, before any stage ran (`route` set when given). */
  newCall(input: Partial<ExecuteToolInput> & { qualifiedName: string }, route?: ToolRoute, options: CallOptions = {}): Call {
    const call = new Call(this.command(input, options), this.clock.now());
    call.route = route;
    return call;
  }
}
