import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { LIVE_TOOL, USABLE_TOOL } from '../../modules/catalog/infrastructure/usable-tool-sql.js';
import { liveStdioProcessCounts } from '../../upstream/stdio/process-registry.js';
import { WorkMetrics, type ApprovalObservation, type CallObservation, type InterceptorObservation, type McpOperationObservation } from '../../shared/work-metrics.js';

/** Buckets for call and commit durations, in seconds: 1 ms to 2 min. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** Buckets for interceptor runs, in seconds: 50 µs (a built-in check) to 30 s (a slow webhook). */
const INTERCEPTOR_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Buckets for the wait of a held call, in seconds: 1 s to 7 days. */
const APPROVAL_BUCKETS = [1, 5, 15, 30, 60, 300, 900, 1800, 3600, 4 * 3600, 12 * 3600, 86_400, 3 * 86_400, 7 * 86_400];
const BATCH_BUCKETS = [1, 2, 5, 10, 25, 50, 100, 250, 500];
/** The MCP semantic conventions' buckets for operation and session durations, in seconds. */
const MCP_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
/** What a label reads when the call named no known tool: a caller's own string never becomes a label. */
const UNKNOWN = '(unknown)';

/**
 * Toolplane's Prometheus metrics (prom-client): counters and histograms the modules feed through
 * WorkMetrics, gauges read at scrape time, and the process's own metrics. Every label is bounded:
 * source and tool names Toolplane issued, channels, statuses, outcomes.
 */
export class PrometheusMetrics extends WorkMetrics {
  readonly registry = new Registry();
  private readonly calls: Counter<'source' | 'tool' | 'channel' | 'status'>;
  private readonly callSeconds: Histogram<'source' | 'channel' | 'status'>;
  private readonly upstreamSeconds: Histogram<'source'>;
  private readonly interceptorDecisions: Counter<'interceptor' | 'phase' | 'decision'>;
  private readonly interceptorSeconds: Histogram<'interceptor' | 'phase'>;
  private readonly approvals: Counter<'decision'>;
  private readonly approvalSeconds: Histogram<'decision'>;
  private readonly refreshes: Counter<'outcome'>;
  private readonly refreshSeconds: Histogram<'outcome'>;
  private readonly commitSeconds: Histogram;
  private readonly commitRows: Histogram;
  private readonly purged: Counter;
  private readonly purgeBatchSeconds: Histogram;
  private readonly purgePassSeconds: Histogram;
  private readonly mcpOperationSeconds: Record<'server' | 'client', Histogram<'mcp_method_name' | 'error_type' | 'network_transport'>>;
  private readonly mcpSessionSeconds: Record<'server' | 'client', Histogram<'network_transport'>>;
  private readonly perSourceReaders = new Map<'in_flight' | 'queued' | 'circuit', () => Map<string, number>>();
  private readConnections?: () => { pooled: number; transient: number };

  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'toolplane_' });
    this.calls = new Counter({ name: 'toolplane_tool_calls_total', help: 'Tool calls ended, by source, tool, channel (rest, mcp) and status.', labelNames: ['source', 'tool', 'channel', 'status'], registers });
    this.callSeconds = new Histogram({
      name: 'toolplane_tool_call_duration_seconds',
      help: 'How long Toolplane took over a call, upstream included.',
      labelNames: ['source', 'channel', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.upstreamSeconds = new Histogram({ name: 'toolplane_upstream_call_duration_seconds', help: 'How long the upstream took over a call (every attempt).', labelNames: ['source'], buckets: DURATION_BUCKETS, registers });
    this.interceptorDecisions = new Counter({
      name: 'toolplane_interceptor_decisions_total',
      help: 'Interceptor runs on tool calls, by interceptor, phase (pre, post) and decision (allow, modify, deny, error: it failed or timed out).',
      labelNames: ['interceptor', 'phase', 'decision'],
      registers,
    });
    this.approvals = new Counter({
      name: 'toolplane_approvals_total',
      help: 'Held tool calls decided, by decision (approved, denied, expired: nobody decided in time).',
      labelNames: ['decision'],
      registers,
    });
    this.approvalSeconds = new Histogram({
      name: 'toolplane_approval_decision_seconds',
      help: 'How long a held call waited for its decision, by decision.',
      labelNames: ['decision'],
      buckets: APPROVAL_BUCKETS,
      registers,
    });
    this.interceptorSeconds = new Histogram({
      name: 'toolplane_interceptor_duration_seconds',
      help: 'How long an interceptor took over one call.',
      labelNames: ['interceptor', 'phase'],
      buckets: INTERCEPTOR_BUCKETS,
      registers,
    });
    this.refreshes = new Counter({ name: 'toolplane_refreshes_total', help: 'Inventory refreshes ended, by outcome (ok, failed).', labelNames: ['outcome'], registers });
    this.refreshSeconds = new Histogram({ name: 'toolplane_refresh_duration_seconds', help: 'How long an inventory refresh took.', labelNames: ['outcome'], buckets: DURATION_BUCKETS, registers });
    this.commitSeconds = new Histogram({ name: 'toolplane_execution_record_commit_seconds', help: 'How long a group commit of execution records took.', buckets: DURATION_BUCKETS, registers });
    this.commitRows = new Histogram({ name: 'toolplane_execution_record_batch_rows', help: 'Execution records per group commit.', buckets: BATCH_BUCKETS, registers });
    this.purged = new Counter({ name: 'toolplane_executions_purged_total', help: 'Executions (with their payloads and chain links) deleted by retention.', registers });
    this.purgeBatchSeconds = new Histogram({ name: 'toolplane_execution_purge_batch_seconds', help: 'How long one transaction of a retention purge took.', buckets: DURATION_BUCKETS, registers });
    this.purgePassSeconds = new Histogram({ name: 'toolplane_execution_purge_pass_seconds', help: 'How long a retention purge pass took, rests between batches included.', buckets: DURATION_BUCKETS, registers });

    // The MCP semantic conventions' histograms, in Prometheus naming (mcp.server.operation.duration → mcp_server_operation_duration_seconds).
    const mcpOperation = (side: 'server' | 'client') =>
      new Histogram({
        name: `mcp_${side}_operation_duration_seconds`,
        help: side === 'server' ? 'How long Toolplane took to answer an MCP request, by method, error type and transport.' : 'How long an upstream took to answer an MCP request Toolplane sent, by method, error type and transport.',
        labelNames: ['mcp_method_name', 'error_type', 'network_transport'],
        buckets: MCP_BUCKETS,
        registers,
      });
    this.mcpOperationSeconds = { server: mcpOperation('server'), client: mcpOperation('client') };
    const mcpSession = (side: 'server' | 'client') =>
      new Histogram({
        name: `mcp_${side}_session_duration_seconds`,
        help: side === 'server' ? 'How long a 2025-era MCP session a caller held with Toolplane lasted.' : 'How long a connection Toolplane held to an upstream MCP server lasted.',
        labelNames: ['network_transport'],
        buckets: MCP_BUCKETS,
        registers,
      });
    this.mcpSessionSeconds = { server: mcpSession('server'), client: mcpSession('client') };

    const sourceGauge = (name: string, help: string, reader: 'in_flight' | 'queued' | 'circuit') =>
      new Gauge({
        name,
        help,
        labelNames: ['source'],
        registers,
        collect: async () => {
          const read = this.perSourceReaders.get(reader);
          if (!read) return;
          const gauge = this.registry.getSingleMetric(name) as Gauge<'source'>;
          gauge.reset();
          const names = await this.sourceNames();
          for (const [id, value] of read()) {
            const source = names.get(id);
            if (source !== undefined) gauge.set({ source }, value);
          }
        },
      });
    sourceGauge('toolplane_source_calls_in_flight', 'Calls of a source running upstream now.', 'in_flight');
    sourceGauge('toolplane_source_calls_queued', "Calls of a source waiting for a slot (its waiting room).", 'queued');
    sourceGauge('toolplane_source_circuit_state', "A source's circuit: 0 closed, 1 half-open, 2 open.", 'circuit');
    new Gauge({
      name: 'toolplane_plugin_processes',
      help: 'Live stdio plugin processes, by whether they run in a sandbox.',
      labelNames: ['sandboxed'],
      registers,
      collect() {
        const counts = liveStdioProcessCounts();
        this.set({ sandboxed: 'true' }, counts.sandboxed);
        this.set({ sandboxed: 'false' }, counts.processes - counts.sandboxed);
      },
    });
    const connections = () => this.readConnections?.();
    new Gauge({
      name: 'toolplane_upstream_connections',
      help: 'Upstream connections open: pooled (kept alive) and transient (one use under way).',
      labelNames: ['kind'],
      registers,
      collect() {
        const counts = connections();
        if (!counts) return;
        this.set({ kind: 'pooled' }, counts.pooled);
        this.set({ kind: 'transient' }, counts.transient);
      },
    });
    const catalogTools = (): Promise<{ state: string; n: number }[]> =>
      this.uow.manager().query(
        // Offered: the catalog's usable rule (its SQL twin); the others by why not.
        `SELECT CASE WHEN ${USABLE_TOOL} THEN 'offered' WHEN t.review_state <> 'approved' THEN 'held' WHEN t.unusable_reason IS NOT NULL THEN 'unusable' ELSE 'disabled' END AS state, count(*)::int AS n
           FROM source_tools t JOIN sources s ON s.id = t.source_id
          WHERE ${LIVE_TOOL} AND t.status = 'active' GROUP BY 1`,
      );
    new Gauge({
      name: 'toolplane_catalog_tools',
      help: 'Active tools in the inventory: offered to agents, held (a definition waiting for review, or rejected), disabled (the tool, its source, or a read-only source for a tool not annotated readOnlyHint), or unusable.',
      labelNames: ['state'],
      registers,
      async collect() {
        const rows = await catalogTools();
        for (const state of ['offered', 'held', 'disabled', 'unusable']) this.set({ state }, rows.find((row) => row.state === state)?.n ?? 0);
      },
    });
  }

  callEnded(call: CallObservation): void {
    const source = call.source ?? UNKNOWN;
    this.calls.inc({ source, tool: call.tool ?? UNKNOWN, channel: call.channel, status: call.status });
    this.callSeconds.observe({ source, channel: call.channel, status: call.status }, call.seconds);
    if (call.upstreamSeconds !== null) this.upstreamSeconds.observe({ source }, call.upstreamSeconds);
  }

  interceptorRan(run: InterceptorObservation): void {
    this.interceptorDecisions.inc({ interceptor: run.interceptor, phase: run.phase, decision: run.decision });
    this.interceptorSeconds.observe({ interceptor: run.interceptor, phase: run.phase }, run.seconds);
  }

  approvalDecided(approval: ApprovalObservation): void {
    this.approvals.inc({ decision: approval.decision });
    this.approvalSeconds.observe({ decision: approval.decision }, approval.seconds);
  }

  mcpOperationEnded(operation: McpOperationObservation): void {
    this.mcpOperationSeconds[operation.side].observe({ mcp_method_name: operation.method, error_type: operation.errorType ?? '', network_transport: operation.transport }, operation.seconds);
  }

  mcpSessionEnded(side: 'server' | 'client', transport: string, seconds: number): void {
    this.mcpSessionSeconds[side].observe({ network_transport: transport }, seconds);
  }

  refreshEnded(ok: boolean, seconds: number): void {
    const outcome = ok ? 'ok' : 'failed';
    this.refreshes.inc({ outcome });
    this.refreshSeconds.observe({ outcome }, seconds);
  }

  recordsCommitted(rows: number, seconds: number): void {
    this.commitRows.observe(rows);
    this.commitSeconds.observe(seconds);
  }

  purgeBatchCommitted(rows: number, seconds: number): void {
    this.purged.inc(rows);
    this.purgeBatchSeconds.observe(seconds);
  }

  purgePassEnded(seconds: number): void {
    this.purgePassSeconds.observe(seconds);
  }

  perSource(name: 'in_flight' | 'queued' | 'circuit', read: () => Map<string, number>): void {
    this.perSourceReaders.set(name, read);
  }

  connections(read: () => { pooled: number; transient: number }): void {
    this.readConnections = read;
  }

  /** The exposition text, and its content type. */
  async exposition(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  private async sourceNames(): Promise<Map<string, string>> {
    const rows: { id: string; name: string }[] = await this.uow.manager().query('SELECT id, name FROM sources WHERE deleted_at IS NULL');
    return new Map(rows.map((row) => [row.id, row.name]));
  }
}
