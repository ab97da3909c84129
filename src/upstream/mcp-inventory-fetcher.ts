import { UpstreamDiscovery } from '../modules/sources/domain/upstream-discovery.port.js';
import type { DiscoveryOptions, DiscoveryResult, UpstreamTarget } from '../modules/sources/domain/upstream.js';
import type { OffThreadSchemaCompiler } from '../shared/off-thread/off-thread-schema-compiler.js';
import { partitionListedTools } from './listed-tool-check.js';
import { screenSchemas } from './schema-screening.js';
import { DEFAULT_INVENTORY_LIMITS, listAllTools, type InventoryLimits, type PageObserver } from './tool-inventory.js';
import { NO_TELEMETRY, type Telemetry } from '../shared/telemetry.js';
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { ClientSession } from './transport-factory.js';
import type { TransportFactory } from './transport-factory.js';
import { mayStemFromStaleEra } from './upstream-error.js';

/**
 * Discovers an upstream's tools over MCP: connects through the TransportFactory (reusing a
 * recorded era so no probe is paid), lists every page, marks the tools whose schemas cannot be
 * checked and reports the negotiated protocol.
 */
export class McpInventoryFetcher extends UpstreamDiscovery {
  constructor(
    private readonly transports: TransportFactory,
    private readonly schemas: OffThreadSchemaCompiler,
    private readonly limits: InventoryLimits = DEFAULT_INVENTORY_LIMITS,
    private readonly telemetry: Telemetry = NO_TELEMETRY,
  ) {
    super();
  }

  async discover(target: UpstreamTarget, options: DiscoveryOptions): Promise<DiscoveryResult> {
    const startedAt = Date.now();
    try {
      return await this.discoverOnce(target, options.timeoutMs, options);
    } catch (error) {
      const remainingMs = options.timeoutMs - (Date.now() - startedAt);
      if (!target.era || !mayStemFromStaleEra(error) || options.signal?.aborted || remainingMs <= 0) throw error;
      // The recorded era may be stale (the server was upgraded or downgraded): negotiate afresh once.
      await this.transports.release(target.sourceId);
      return this.discoverOnce({ ...target, era: undefined, discoverResult: undefined }, remainingMs, options);
    }
  }

  release(sourceId: string): Promise<void> {
    return this.transports.release(sourceId);
  }

  forget(sourceId: string): Promise<void> {
    return this.transports.forget(sourceId);
  }

  onToolsChanged(listener: (sourceId: string) => void): () => void {
    return this.transports.onToolsChanged(listener);
  }

  private discoverOnce(target: UpstreamTarget, timeoutMs: number, { signal, onProgress }: DiscoveryOptions): Promise<DiscoveryResult> {
    return this.transports.withClient(
      target,
      async (session) => {
        session.setPhase('listing tools');
        const { kept, skipped } = partitionListedTools(await listAllTools(session.client, session.requestOptions, this.limits, this.tracedPages(target, session)));
        const tools = await screenSchemas(kept, this.schemas);
        const protocol = session.connection.protocol;
        const result: DiscoveryResult = { tools, era: protocol.era, protocolVersion: protocol.protocolVersion };
        if (skipped.length > 0) result.skippedTools = skipped;
        if (protocol.serverInfo) result.serverInfo = protocol.serverInfo;
        if (protocol.era === 'modern' && protocol.discoverResult !== undefined) result.discoverResult = protocol.discoverResult;
        return result;
      },
      { timeoutMs, signal, onProgress },
    );
  }

  /** Each `tools/list` page as a CLIENT span (and a `mcp.client.operation.duration` observation), its context sent in `_meta`. */
  private tracedPages(target: UpstreamTarget, session: ClientSession): PageObserver {
    return async (send) => {
      const operation = this.telemetry.upstreamListing(target);
      operation.connected(session.client.getNegotiatedProtocolVersion(), session.connection.legacySessionId);
      try {
        return await operation.run(() => send(operation.carrier()));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof ProtocolError) operation.failed('protocol', error.code, message);
        else operation.failed(error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout ? 'timeout' : 'transport', undefined, message);
        throw error;
      } finally {
        operation.end();
      }
    };
  }
}
