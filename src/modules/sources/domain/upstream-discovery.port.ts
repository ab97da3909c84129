import type { DiscoveryOptions, DiscoveryResult, UpstreamTarget } from './upstream.js';

/**
 * Port to the MCP infrastructure: connect to an upstream, list every tool (all pages),
 * and leave no connection or process behind (a singleton source keeps its pooled one).
 * Failures reject with an Error whose message is safe to show (no secret values).
 */
export abstract class UpstreamDiscovery {
  abstract discover(target: UpstreamTarget, options: DiscoveryOptions): Promise<DiscoveryResult>;
  /** Close every pooled connection and process of a source (update, disable). */
  abstract release(sourceId: string): Promise<void>;
  /** Release a removed source and delete what its plugins kept between processes (their home). */
  abstract forget(sourceId: string): Promise<void>;
  /**
   * Calls `listener` with a source's id when its upstream announces, on a connection Toolplane
   * keeps open, that its tools changed (MCP `notifications/tools/list_changed`); answers the
   * function that stops listening.
   */
  abstract onToolsChanged(listener: (sourceId: string) => void): () => void;
}
