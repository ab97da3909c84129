import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { WorkMetrics } from '../../shared/work-metrics.js';
import { McpTelemetry } from './mcp-telemetry.js';

/** MCP spans and duration metrics (McpTelemetry); the SDK itself is started by startToolplane. */
@Global()
@Module({
  providers: [{ provide: McpTelemetry, useFactory: (metrics: WorkMetrics, config: AppConfig) => new McpTelemetry(metrics, config.tracing.payloads), inject: [WorkMetrics, APP_CONFIG] }],
  exports: [McpTelemetry],
})
export class TracingModule {}
