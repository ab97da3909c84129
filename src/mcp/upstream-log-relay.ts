import { isAtLeast, LOG_LEVELS, type LogLevel, type LogSubscription, type UpstreamLogMessage } from '../modules/execution/domain/tool-invoker.port.js';

/**
 * Who may hear a log message that arrived on a connection rather than on a request's own stream
 * (stdio, legacy SSE). Nothing on that wire says which call a message belongs to, so it is relayed
 * only where exactly one call can have caused it:
 *
 * - `exclusive`: the connection serves a single use (a transient stdio process), so every message
 *   is that call's;
 * - `requested`: a 2026-07-28 upstream logs only for requests that carry a log level in `_meta`, so
 *   while exactly one subscribed call is in flight the message is its own;
 * - `never`: a shared 2025-era connection, whose server logs whenever it likes (its session level).
 */
export type LogAttribution = 'exclusive' | 'requested' | 'never';

/** The log subscriptions of the calls in flight on one upstream connection. */
export class UpstreamLogRelay {
  private readonly subscriptions = new Set<LogSubscription>();

  constructor(private readonly attribution: () => LogAttribution) {}

  /** Subscribes a call for as long as it runs; answers the unsubscribe function. */
  subscribe(subscription: LogSubscription): () => void {
    this.subscriptions.add(subscription);
    return () => this.subscriptions.delete(subscription);
  }

  /** A `notifications/message` that came on the connection itself. */
  receive(params: unknown): void {
    if (this.subscriptions.size !== 1) return;
    const attribution = this.attribution();
    if (attribution === 'never') return;
    const [subscription] = this.subscriptions;
    deliverLog(subscription!, params);
  }
}

/** Hands a `notifications/message`'s params to a subscriber, if well-formed and severe enough; a failing listener is ignored. */
export function deliverLog(subscription: LogSubscription, params: unknown): void {
  const message = logMessageOf(params);
  if (!message || !isAtLeast(message.level, subscription.level)) return;
  try {
    subscription.onMessage(message);
  } catch {
    // a failing listener must not fail the call
  }
}

function logMessageOf(params: unknown): UpstreamLogMessage | undefined {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const { level, logger, data } = params as Record<string, unknown>;
  if (!isLogLevel(level) || !('data' in params)) return undefined;
  return { level, data, ...(typeof logger === 'string' ? { logger } : {}) };
}

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}
