/**
 * The MCP tools/call requests under way, by caller and JSON-RPC id, so that a 2025-era
 * `notifications/cancelled` — which arrives as its own stateless POST, never on the request it
 * cancels — can abort the call it names. Ids are chosen by clients and repeat across clients of one
 * principal, so a cancellation that matches more than one call aborts none.
 */
export class McpCallRegistry {
  private readonly calls = new Map<string, Set<AbortController>>();

  /**
   * Registers a call whose `signal` aborts on a matching cancellation or when `parent` aborts (the
   * request's own stream closed); `done` must be called when the call ends.
   */
  track(principalId: string, requestId: string | number, parent?: AbortSignal): { signal: AbortSignal; done: () => void } {
    const key = keyOf(principalId, requestId);
    const controller = new AbortController();
    const onParentAbort = () => controller.abort(parent?.reason);
    if (parent?.aborted) controller.abort(parent.reason);
    else parent?.addEventListener('abort', onParentAbort, { once: true });
    let set = this.calls.get(key);
    if (!set) {
      set = new Set();
      this.calls.set(key, set);
    }
    set.add(controller);
    const done = () => {
      parent?.removeEventListener('abort', onParentAbort);
      const current = this.calls.get(key);
      if (!current) return;
      current.delete(controller);
      if (current.size === 0) this.calls.delete(key);
    };
    return { signal: controller.signal, done };
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
