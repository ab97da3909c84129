import {
  context,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type AttributeValue,
  type Context,
  type ContextManager,
  type Span,
  type SpanContext,
  type SpanOptions,
  type SpanStatus,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { McpTelemetry } from './mcp-telemetry.js';
import { traceCarriers } from './trace-carrier.js';

/** A span as this recording provider keeps it. */
interface Recorded {
  name: string;
  kind: SpanKind | undefined;
  parentSpanId: string | undefined;
  spanId: string;
  attributes: Attributes;
  status: SpanStatus | undefined;
  ended: boolean;
}

/** The least TracerProvider that records spans, and a synchronous context manager: the API alone, no SDK. */
class RecordingProvider implements TracerProvider {
  readonly spans: Recorded[] = [];
  private next = 1;

  getTracer(): Tracer {
    const startSpan = (name: string, options: SpanOptions = {}, parent: Context = context.active()): Span => {
      const spanContext: SpanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: (this.next++).toString(16).padStart(16, '0'), traceFlags: 1 };
      const recorded: Recorded = { name, kind: options.kind, parentSpanId: trace.getSpanContext(parent)?.spanId, spanId: spanContext.spanId, attributes: { ...options.attributes }, status: undefined, ended: false };
      this.spans.push(recorded);
      const span: Span = {
        spanContext: () => spanContext,
        setAttribute: (key: string, value: AttributeValue) => ((recorded.attributes[key] = value), span),
        setAttributes: (attributes: Attributes) => (Object.assign(recorded.attributes, attributes), span),
        addEvent: () => span,
        addLink: () => span,
        addLinks: () => span,
        setStatus: (status: SpanStatus) => ((recorded.status = status), span),
        updateName: () => span,
        end: () => void (recorded.ended = true),
        isRecording: () => !recorded.ended,
        recordException: () => undefined,
      };
      return span;
    };
    return { startSpan, startActiveSpan: (() => undefined) as unknown as Tracer['startActiveSpan'] };
  }
}

class StackContextManager implements ContextManager {
  private current = ROOT_CONTEXT;
  active(): Context {
    return this.current;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    const before = this.current;
    this.current = ctx;
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.current = before;
    }
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    return this;
  }
}

describe('interceptor spans (McpTelemetry.interceptorRun)', () => {
  const provider = new RecordingProvider();

  beforeAll(() => {
    trace.setGlobalTracerProvider(provider);
    context.setGlobalContextManager(new StackContextManager());
    traceCarriers.enable();
  });

  afterAll(() => {
    traceCarriers.disable();
    trace.disable();
    context.disable();
  });

  it("makes each run an INTERNAL span under the call's span, named after the interceptor, with its kind, phase and decision", () => {
    const telemetry = new McpTelemetry(undefined, false);
    const callSpan = trace.getTracer('test').startSpan('tools/call files__read', { kind: SpanKind.SERVER });
    let innerParent: string | undefined;
    context.with(trace.setSpan(context.active(), callSpan), () => {
      const allowed = telemetry.interceptorRun({ name: 'mask-emails', kind: 'redact', phase: 'post' });
      // What the engine does runs under the interceptor's span (a webhook's request would be its child).
      allowed.run(() => (innerParent = trace.getSpan(context.active())?.spanContext().spanId));
      allowed.end('modify');
      telemetry.interceptorRun({ name: 'no-etc', kind: 'deny', phase: 'pre' }).end('deny');
      telemetry.interceptorRun({ name: 'hook', kind: 'webhook', phase: 'pre' }).end('error', 'timeout');
    });
    const [, modify, deny, error] = provider.spans;
    expect(modify).toEqual({
      name: 'interceptor mask-emails',
      kind: SpanKind.INTERNAL,
      parentSpanId: callSpan.spanContext().spanId,
      spanId: modify!.spanId,
      attributes: { 'toolplane.interceptor.name': 'mask-emails', 'toolplane.interceptor.kind': 'redact', 'toolplane.interceptor.phase': 'post', 'toolplane.interceptor.decision': 'modify' },
      status: undefined,
      ended: true,
    });
    expect(innerParent).toBe(modify!.spanId);
    // A denial is the interceptor doing its work; a failure is an error.
    expect([deny!.name, deny!.status, deny!.attributes['toolplane.interceptor.decision']]).toEqual(['interceptor no-etc', undefined, 'deny']);
    expect(error!.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(error!.attributes).toMatchObject({ 'toolplane.interceptor.decision': 'error', 'error.type': 'timeout' });
  });

  it('starts no span with traces off', () => {
    traceCarriers.disable();
    const before = provider.spans.length;
    const operation = new McpTelemetry(undefined, false).interceptorRun({ name: 'x', kind: 'deny', phase: 'pre' });
    expect(operation.run(() => 7)).toBe(7);
    operation.end('allow');
    expect(provider.spans).toHaveLength(before);
    traceCarriers.enable();
  });
});
