import { join } from 'node:path';
import { Global, Logger, Module } from '@nestjs/common';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { ToolInvoker } from '../modules/execution/domain/tool-invoker.port.js';
import { PluginAccess } from '../modules/sources/domain/ports.js';
import { UpstreamDiscovery } from '../modules/sources/domain/upstream-discovery.port.js';
import { SandboxUserAccess } from './stdio/sandbox-user-access.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { hostPolicy } from '../shared/host-policy.js';
import { OffThreadSchemaCompiler } from '../shared/off-thread/off-thread-schema-compiler.js';
import { McpInventoryFetcher } from './mcp-inventory-fetcher.js';
import { DEFAULT_INVENTORY_LIMITS } from './tool-inventory.js';
import { McpToolExecutor } from './mcp-tool-executor.js';
import { PluginHomes } from './stdio/plugin-homes.js';
import { decideSandbox, SANDBOX_STATUS, type SandboxStatus } from './stdio/sandbox-probe.js';
import { StderrRateLimit } from './stdio/stderr-lines.js';
import { TransportFactory } from './transport-factory.js';
import { UpstreamPrimitives } from './upstream-primitives.js';
import { UpstreamWarmUp } from './warm-up.js';
import { WorkMetrics } from '../shared/work-metrics.js';
import { Telemetry } from '../shared/telemetry.js';

const stderrLogger = new Logger('mcp-stdio');
/** A plugin's stderr reaches the (debug) log at most this fast; the rest is counted, not logged. */
const STDERR_LINES_PER_SECOND = 50;
const stderrRate = new StderrRateLimit(STDERR_LINES_PER_SECOND);
const sandboxLogger = new Logger('sandbox');

/**
 * The input Toolplane declares to 2026-07-28 upstreams: every kind an `input_required` result can
 * ask for, since it relays them to its caller — a REST caller answers any kind, and the MCP
 * endpoint refuses (-32021) an input request its caller did not declare the capability for.
 */
const RELAYED_INPUT_CAPABILITIES: ClientCapabilities = { elicitation: { form: {} }, sampling: {}, roots: {} };

/**
 * The MCP client side: pooled upstream connections (TransportFactory), the plugin sandbox, and the
 * adapters of the ports the modules declare for reaching upstreams (UpstreamDiscovery, ToolInvoker).
 * Global: a module asks for its port and never imports this one.
 */
@Global()
@Module({
  providers: [
    {
      // TransportFactory.onApplicationShutdown closes every connection and kills every stdio process group.
      provide: TransportFactory,
      useFactory: (sandbox: SandboxStatus, config: AppConfig, metrics: WorkMetrics) => {
        const homes = sandbox.enabled ? new PluginHomes(join(config.dataDir, 'plugins'), sandbox.policy.runAs) : undefined;
        const transports = new TransportFactory({
          stdio: {
            onStderrLine: (sourceId, line) => {
              const { admitted, dropped } = stderrRate.admit(sourceId);
              if (dropped > 0) stderrLogger.debug(`[${sourceId}] (${dropped} stderr lines not logged: over ${STDERR_LINES_PER_SECOND} per second)`);
              if (admitted) stderrLogger.debug(`[${sourceId}] ${line}`);
            },
            sandbox: sandbox.enabled ? sandbox.policy : undefined,
            homes,
          },
          http: { hostPolicy: hostPolicy(config.sourceHosts) },
          schemaLimits: config.schemaLimits,
          pool: { principalMax: config.principalPoolMax, principalIdleTimeoutMs: config.principalPoolIdleMs },
          modernInputCapabilities: RELAYED_INPUT_CAPABILITIES,
          onSessionEnded: (transport, seconds) => metrics.mcpSessionEnded('client', transport, seconds),
        });
        metrics.connections(() => transports.connectionCounts());
        return transports;
      },
      inject: [SANDBOX_STATUS, APP_CONFIG, WorkMetrics],
    },
    {
      // Probed once per process; TOOLPLANE_SANDBOX=required makes an unavailable sandbox fail the start.
      provide: SANDBOX_STATUS,
      useFactory: (config: AppConfig): SandboxStatus => {
        const status = decideSandbox({
          mode: config.sandbox,
          bwrapPath: config.sandboxBwrapPath,
          dataDir: config.dataDir,
          uid: config.sandboxUid,
          gid: config.sandboxGid,
          currentUid: process.getuid?.() ?? -1,
        });
        if (status.enabled) {
          const user = status.policy.runAs ? `as uid ${status.policy.runAs.uid}, gid ${status.policy.runAs.gid}` : "as Toolplane's own user";
          sandboxLogger.log(`stdio plugins run in a bubblewrap sandbox ${user}`);
        } else {
          sandboxLogger.warn(`stdio plugins run WITHOUT a sandbox (${status.reason}): they run as Toolplane's user and can read what it can read; to fix: ${status.fix}`);
        }
        return status;
      },
      inject: [APP_CONFIG],
    },
    {
      // What a sandboxed plugin's user may read and run, checked at registration.
      provide: PluginAccess,
      useFactory: (sandbox: SandboxStatus) => new SandboxUserAccess(sandbox.enabled ? sandbox.policy.runAs : undefined),
      inject: [SANDBOX_STATUS],
    },
    {
      provide: UpstreamDiscovery,
      useFactory: (transports: TransportFactory, config: AppConfig, telemetry: Telemetry) =>
        new McpInventoryFetcher(transports, new OffThreadSchemaCompiler(config.schemaLimits), DEFAULT_INVENTORY_LIMITS, telemetry),
      inject: [TransportFactory, APP_CONFIG, Telemetry],
    },
    {
      provide: ToolInvoker,
      useFactory: (transports: TransportFactory, telemetry: Telemetry) => new McpToolExecutor(transports, telemetry),
      inject: [TransportFactory, Telemetry],
    },
    { provide: UpstreamPrimitives, useFactory: (transports: TransportFactory) => new UpstreamPrimitives(transports), inject: [TransportFactory] },
    UpstreamWarmUp,
  ],
  exports: [TransportFactory, UpstreamDiscovery, ToolInvoker, PluginAccess, UpstreamPrimitives, SANDBOX_STATUS],
})
export class UpstreamModule {}
