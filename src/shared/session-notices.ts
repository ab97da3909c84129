/**
 * What a 2025-era session's client is to hear outside any request (a task's status), told to the
 * other processes sharing the database: a session is no process's own (its id is sealed, any
 * replica serves it), so its standalone stream may be open on another replica than the one that
 * has something to tell. This one is for a single process: it relays nothing; PgSessionNotices
 * relays over PostgreSQL NOTIFY. `body` is opaque here.
 */
export class SessionNotices {
  private readonly listeners = new Set<(sessionId: string, body: string) => void>();

  /** Tells the other processes, where there are others; a body too large for a notice is not told (its client polls). */
  relay(_sessionId: string, _body: string): void {}

  /** Calls `listener` with each notice another process relays; answers the function that stops it. */
  onNotice(listener: (sessionId: string, body: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A notice relayed by another process. */
  heard(sessionId: string, body: string): void {
    for (const listener of [...this.listeners]) listener(sessionId, body);
  }
}
