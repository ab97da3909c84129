import { context, propagation, ROOT_CONTEXT, trace, type Context, type SpanContext } from '@opentelemetry/api';

/** The W3C keys trace context travels under, in HTTP headers and, unprefixed, in an MCP request's `params._meta` (SEP-414). */
export const TRACE_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;

let enabled = false;

/**
 * Reading and writing trace context in HTTP headers and `params._meta`, with the configured
 * propagators (W3C Trace Context and Baggage unless OTEL_PROPAGATORS says otherwise).
 * Everything answers "nothing" while tracing is off.
 */
export const traceCarriers = {
  get enabled(): boolean {
    return enabled;
  },
  enable(): void {
    enabled = true;
  },
  disable(): void {
    enabled = false;
  },

  /** The active context as carrier entries (`traceparent`, …), or undefined when no span is active. */
  current(): Record<string, string> | undefined {
    if (!enabled) return undefined;
    const active = context.active();
    const span = trace.getSpan(active);
    if (!span || !trace.isSpanContextValid(span.spanContext())) return undefined;
    const carrier: Record<string, string> = {};
    propagation.inject(active, carrier);
    return Object.keys(carrier).length > 0 ? carrier : undefined;
  },

  /** The context a carrier (HTTP headers or `_meta`) names, or undefined when it names no valid span. */
  extract(carrier: Record<string, unknown>): Context | undefined {
    if (!enabled) return undefined;
    const extracted = propagation.extract(ROOT_CONTEXT, carrier, getter);
    const spanContext = trace.getSpanContext(extracted);
    return spanContext && trace.isSpanContextValid(spanContext) ? extracted : undefined;
  },

  /** Whether a `_meta` object carries a trace context. */
  carries(meta: Record<string, unknown>): boolean {
    return typeof meta.traceparent === 'string';
  },
};

export function spanContextOf(ctx: Context | undefined): SpanContext | undefined {
  return ctx ? trace.getSpanContext(ctx) : undefined;
}

/** Reads string values only: `_meta` is the caller's JSON, headers may repeat. */
const getter = {
  keys: (carrier: Record<string, unknown>) => Object.keys(carrier),
  get: (carrier: Record<string, unknown>, key: string): string | string[] | undefined => {
    const value = carrier[key];
    if (typeof value === 'string') return value;
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
    return undefined;
  },
};
