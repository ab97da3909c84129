import { CallerDeparture, type CallerSignal } from '../../../shared/caller-signal.js';

/** What a cancellation aborts. */
interface Abortable {
  abort(reason?: unknown): void;
}

/**
 * The MCP tools/call requests under way, by caller and JSON-RPC id, so that a 2025-era
 * `notifications/cancelled` — which arrives as its own stateless POST, never on the request it
 * cancels — can abort the call it names. Ids are chosen by clients and repeat across clients of one
 * principal, so a cancellation that matches more than one call aborts none.
 */
export class McpCallRegistry {
  private readonly calls = new Map<string, Set<Abortable>>();

  /**
   * Registers a call whose `signal` aborts on a matching cancellation or when `parent` aborts (the
   * request's own stream closed); `done` must be called when the call ends.
   */
  track(principalId: string, requestId: string | number, parent?: AbortSignal): { signal: AbortSignal; done: () => void } {
    const controller = new AbortController();
    return { signal: controller.signal, done: this.register(principalId, requestId, controller, parent) };
  }

  /** As track(), for a tool call, which needs no AbortSignal (see CallerDeparture). */
  trackCall(principalId: string, requestId: string | number, parent?: CallerSignal): { signal: CallerSignal; done: () => void } {
    const departure = new CallerDeparture();
    return { signal: departure, done: this.register(principalId, requestId, departure, parent) };
  }

  private register(principalId: string, requestId: string | number, call: Abortable, parent?: CallerSignal): () => void {
    const key = keyOf(principalId, requestId);
    const onParentAbort = () => call.abort(parent?.reason);
    if (parent?.aborted) call.abort(parent.reason);
    else parent?.addEventListener('abort', onParentAbort, { once: true });
    let set = this.calls.get(key);
    if (!set) {
      set = new Set();
      this.calls.set(key, set);
    }
    set.add(call);
    return () => {
      parent?.removeEventListener('abort', onParentAbort);
      const current = this.calls.get(key);
      if (!current) return;
      current.delete(call);
      if (current.size === 0) this.calls.delete(key);
    };
  }

  /** Aborts the one call of this principal with this id; false when there is none or it is ambiguous. */
  cancel(principalId: string, requestId: string | number, reason?: string): boolean {
    const set = this.calls.get(keyOf(principalId, requestId));
    if (!set || set.size !== 1) return false;
    const [controller] = set;
    controller!.abort(new Error(reason ? `cancelled by the caller: ${reason.slice(0, 200)}` : 'cancelled by the caller'));
    return true;
  }

  get size(): number {
    let n = 0;
    for (const set of this.calls.values()) n += set.size;
    return n;
  }
}

function keyOf(principalId: string, requestId: string | number): string {
  return `${principalId}\u0000${typeof requestId}:${requestId}`;
}
