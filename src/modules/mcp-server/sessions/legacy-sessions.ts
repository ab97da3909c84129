import { randomUUID } from 'node:crypto';
import { RELAYED_INPUT_KINDS } from '../../../upstream/relayed-input.js';
import { WebStandardStreamableHTTPServerTransport, type AuthInfo, type Server } from '@modelcontextprotocol/server';

export interface LegacySessionLimits {
  /** Sessions kept at most per process; the least recently used one is closed to make room. */
  maxSessions: number;
  /** A session unused for this long is closed. */
  idleMs: number;
}

export const DEFAULT_LEGACY_SESSION_LIMITS: LegacySessionLimits = { maxSessions: 10_000, idleMs: 30 * 60 * 1000 };
/** Terminated session ids remembered, so that a client using one learns it is gone (404). */
const REMEMBERED_ENDINGS = 10_000;

interface LegacySession {
  id: string;
  /** Who opened it, and on which endpoint: the only caller and surface it answers. */
  principalId: string;
  surface: string;
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
  lastUsed: number;
  /** performance.now() when it was opened. */
  opened: number;
}

/**
 * 2025-era sessions, held in this process. Toolplane serves 2025-era clients statelessly except
 * where a session is needed: a client that declared it can answer server-to-client requests
 * (elicitation, sampling, roots) gets one at `initialize`, so that an upstream's request for input
 * can be put to it on its own connection (the SDK sends the requests and re-runs the call with the
 * answers). The session's server instance knows the capabilities the client declared. Sessions
 * end on DELETE, when idle, and at shutdown; a session's standalone GET stream hears of tool-list
 * changes. Requests naming a session another process holds are served statelessly by the caller.
 */
export class LegacySessions {
  private readonly sessions = new Map<string, LegacySession>();
  private readonly ended = new Set<string>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: LegacySessionLimits = DEFAULT_LEGACY_SESSION_LIMITS,
    /** Told how long each session lasted, when it ends. */
    private readonly onEnded?: (seconds: number) => void,
  ) {
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(60_000, Math.max(1000, limits.idleMs / 2)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Answers an `initialize` on a new sessionful transport; the session exists once the SDK assigned its id. */
  async open(
    server: Server,
    request: Request,
    parsedBody: unknown,
    authInfo: AuthInfo,
    owner: { principalId: string; surface: string },
    /** The id to give the session (by default a random one). */
    newId: () => string = () => randomUUID(),
  ): Promise<Response> {
    this.makeRoom();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: newId,
      onsessioninitialized: (id) => {
        this.sessions.set(id, { id, ...owner, server, transport, lastUsed: Date.now(), opened: performance.now() });
      },
      onsessionclosed: (id) => this.forget(id),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.forget(transport.sessionId);
    };
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody, authInfo });
    if (transport.sessionId === undefined || !this.sessions.has(transport.sessionId)) {
      void server.close().catch(() => undefined);
    }
    return response;
  }

  /** The session `id` of this principal on this surface, if this process holds it. */
  find(id: string, owner: { principalId: string; surface: string }): LegacySession | undefined {
    const session = this.sessions.get(id);
    if (!session || session.principalId !== owner.principalId || session.surface !== owner.surface) return undefined;
    session.lastUsed = Date.now();
    // Most recently used last: the map's order is the eviction order.
    this.sessions.delete(id);
    this.sessions.set(id, session);
    return session;
  }

  /** Whether `id` named a session this process held and has ended. */
  wasEnded(id: string): boolean {
    return this.ended.has(id);
  }

  /** Whether this process holds session `id` of this principal. */
  holds(id: string, principalId: string): boolean {
    return this.sessions.get(id)?.principalId === principalId;
  }

  /** Tells the client of session `id` (if it is this principal's, held here) something on its standalone stream. */
  async notify(id: string, principalId: string, notification: { method: string; params: Record<string, unknown> }): Promise<void> {
    const session = this.sessions.get(id);
    if (!session || session.principalId !== principalId) return;
    await session.server.notification(notification as Parameters<Server['notification']>[0]).catch(() => undefined);
  }

  /** Tells every session's client that the tool list changed (on its standalone stream, if it opened one). */
  /** `on`: only the sessions of the endpoints (surface keys) it accepts; all without it. */
  notifyToolsChanged(on?: (surface: string) => boolean): void {
    for (const session of this.sessions.values()) if (!on || on(session.surface)) void session.server.sendToolListChanged().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    for (const session of sessions) this.onEnded?.((performance.now() - session.opened) / 1000);
    await Promise.allSettled(sessions.map((session) => session.server.close()));
  }

  private forget(id: string): void {
    const session = this.sessions.get(id);
    if (!session || !this.sessions.delete(id)) return;
    this.onEnded?.((performance.now() - session.opened) / 1000);
    this.ended.add(id);
    if (this.ended.size > REMEMBERED_ENDINGS) this.ended.delete(this.ended.values().next().value as string);
  }

  private closeIdle(): void {
    const cutoff = Date.now() - this.limits.idleMs;
    for (const session of [...this.sessions.values()]) {
      if (session.lastUsed < cutoff) this.close(session);
    }
  }

  private makeRoom(): void {
    while (this.sessions.size >= this.limits.maxSessions) {
      const oldest = this.sessions.values().next().value as LegacySession;
      this.close(oldest);
    }
  }

  private close(session: LegacySession): void {
    this.forget(session.id);
    void session.server.close().catch(() => undefined);
  }
}

/** Whether an `initialize` declares a capability that lets the server send it requests. */
export function declaresInputCapabilities(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { method, params } = body as { method?: unknown; params?: { capabilities?: Record<string, unknown> } };
  if (method !== 'initialize') return false;
  const capabilities = params?.capabilities;
  return typeof capabilities === 'object' && capabilities !== null && RELAYED_INPUT_KINDS.some((kind) => capabilities[kind] !== undefined);
}
