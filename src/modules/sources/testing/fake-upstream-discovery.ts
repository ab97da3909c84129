import type { DiscoveredTool, DiscoveryOptions, DiscoveryResult, UpstreamTarget } from '../domain/upstream.js';
import { UpstreamDiscovery } from '../domain/upstream-discovery.port.js';

/** How an upstream answers a discovery: a listing, a failure, or anything a function does with the target. */
export type UpstreamAnswer = DiscoveryResult | Error | ((target: UpstreamTarget, options: DiscoveryOptions) => Promise<DiscoveryResult>);

/**
 * Upstreams that answer as told, by source name (an empty legacy-era listing otherwise), and a
 * record of every discovery with the target it was given, every release and every forget.
 */
export class FakeUpstreamDiscovery extends UpstreamDiscovery {
  private readonly answers = new Map<string, UpstreamAnswer>();
  private readonly listeners = new Set<(sourceId: string) => void>();
  readonly discoveries: { target: UpstreamTarget; options: DiscoveryOptions }[] = [];
  readonly released: string[] = [];
  readonly forgotten: string[] = [];

  answer(sourceName: string, answer: UpstreamAnswer): this {
    this.answers.set(sourceName, answer);
    return this;
  }

  /**
   * Discoveries of `sourceName` wait (until their signal aborts) for `finish`, which gives their
   * outcome (an empty listing by default); `started` resolves once one began.
   */
  hold(sourceName: string): { started: Promise<void>; finish: (outcome?: DiscoveryResult | Error) => void } {
    let began: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (began = resolve));
    let settle: (outcome: DiscoveryResult | Error) => void = () => undefined;
    const outcome = new Promise<DiscoveryResult | Error>((resolve) => (settle = resolve));
    this.answer(sourceName, async () => {
      began();
      const answer = await outcome;
      if (answer instanceof Error) throw answer;
      return answer;
    });
    return { started, finish: (answer = aListing([])) => settle(answer) };
  }

  async discover(target: UpstreamTarget, options: DiscoveryOptions): Promise<DiscoveryResult> {
    this.discoveries.push({ target, options });
    const answer = this.answers.get(target.sourceName) ?? aListing([]);
    if (answer instanceof Error) throw answer;
    if (typeof answer === 'function') return abortable(answer(target, options), options.signal);
    return structuredClone(answer);
  }

  async release(sourceId: string): Promise<void> {
    this.released.push(sourceId);
  }

  async forget(sourceId: string): Promise<void> {
    this.forgotten.push(sourceId);
  }

  onToolsChanged(listener: (sourceId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The upstream of `sourceId` says its tools changed. */
  announce(sourceId: string): void {
    for (const listener of this.listeners) listener(sourceId);
  }
}

/** As a real discovery does, gives up when its signal aborts. */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** A legacy-era listing of these tools (a name stands for a tool taking any object). */
export function aListing(tools: readonly (string | DiscoveredTool)[], rest: Partial<Omit<DiscoveryResult, 'tools'>> = {}): DiscoveryResult {
  return {
    tools: tools.map((tool) => (typeof tool === 'string' ? { name: tool, inputSchema: { type: 'object' } } : tool)),
    era: 'legacy',
    protocolVersion: '2025-11-25',
    serverInfo: { name: 'fake-upstream', version: '1.0.0' },
    ...rest,
  };
}
