import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { WorkMetrics } from '../../shared/work-metrics.js';
import { Telemetry } from '../../shared/telemetry.js';
import { McpTelemetry } from './mcp-telemetry.js';

/** MCP spans and duration metrics (McpTelemetry); the SDK itself is started by startToolplane. */
@Global()
@Module({
  providers: [{ provide: Telemetry, useFactory: (metrics: WorkMetrics, config: AppConfig) => new McpTelemetry(metrics, config.tracing.payloads), inject: [WorkMetrics, APP_CONFIG] }],
  exports: [Telemetry],
})
export class TracingModule {}
