import { trace } from '@opentelemetry/api';
import type { TracingSettings } from '../../config/app-config.js';
import { activeTrace } from '../../shared/active-trace.js';
import { traceCarriers } from './trace-carrier.js';

export interface StartedTracing {
  /** Exports what is still buffered, then stops. */
  shutdown(): Promise<void>;
}

let started: StartedTracing | undefined;

/**
 * Starts the OpenTelemetry SDK when traces are configured: the exporter, protocol, sampler,
 * propagators and batching come from the standard OTEL_* variables, which the SDK reads itself.
 * No instrumentations are loaded: Toolplane makes its own MCP and HTTP spans. Once per process.
 */
export async function startTracing(settings: TracingSettings): Promise<StartedTracing | undefined> {
  if (!settings.enabled) return undefined;
  if (started) return started;
  // Loaded only when traces are on: the SDK and its exporters cost start time and memory.
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  // Traces only: Toolplane's metrics are served on /metrics, and it writes no OpenTelemetry logs.
  const sdk = new NodeSDK({ serviceName: settings.serviceName, instrumentations: [], metricReaders: [], logRecordProcessors: [] });
  sdk.start();
  traceCarriers.enable();
  activeTrace.install(() => {
    const span = trace.getActiveSpan();
    if (!span) return undefined;
    const { traceId, spanId } = span.spanContext();
    return trace.isSpanContextValid(span.spanContext()) ? { traceId, spanId } : undefined;
  }, () => traceCarriers.current());
  const handle: StartedTracing = {
    shutdown: async () => {
      if (started !== handle) return;
      started = undefined;
      traceCarriers.disable();
      activeTrace.install(() => undefined);
      await sdk.shutdown();
    },
  };
  started = handle;
  return handle;
}
