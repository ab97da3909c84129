import { TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { StreamableHTTPClientTransport, type ClientCapabilities, type Transport } from '@modelcontextprotocol/client';
import type { ProtocolEra } from '../modules/sources/domain/upstream.js';
import type { TransportKind } from '../modules/sources/domain/source-settings.js';
import { describeUpstreamFailure } from './describe-upstream-failure.js';
import type { DirectCaller } from './http/direct-tool-call.js';
import { ExtTasksCalls } from './ext-tasks-calls.js';
import type { UpstreamTaskCalls } from './upstream-task-call.js';
import type { ToolplaneClient } from './toolplane-client.js';
import { StdioProcessTransport } from './stdio/stdio-process-transport.js';
import { UpstreamCallRelay, type Attribution } from './upstream-call-relay.js';
import type { UpstreamError } from './upstream-error.js';
import { isRecord } from '../shared/is-record.js';

export interface ConnectionIdentity {
  sourceId: string;
  transport: TransportKind;
  /** Printable endpoint (command or credential-free URL). */
  endpoint: string;
  /** Values that must never appear in messages. */
  secrets: readonly string[];
  /** connectionFingerprint() of the target this connection was made for. */
  fingerprint: string;
}

export interface NegotiatedProtocol {
  era: ProtocolEra;
  protocolVersion: string;
  serverInfo?: { name: string; version?: string };
  /** The modern-era discover result (JSON-serialisable), to be recorded as the prior for later connects. */
  discoverResult?: unknown;
}

const SESSION_TERMINATION_MS = 1000;

/** A connected SDK client plus what Toolplane needs to know about it (liveness, failures, protocol). */
export class McpConnection {
  private isClosed = false;
  private closing?: Promise<void>;
  private onClosed?: () => void;
  /** The calls in flight, for the log messages and requests for input that arrive on the connection itself. */
  readonly calls: UpstreamCallRelay;
  private taskCalls?: ExtTasksCalls;

  constructor(
    readonly client: ToolplaneClient,
    readonly transport: Transport,
    readonly identity: ConnectionIdentity,
    /** Direct `tools/call` sender of Streamable HTTP and stdio connections (see DirectToolCaller, StdioDirectToolCaller). */
    readonly directCaller?: DirectCaller,
    /** Whether the connection serves a single use (a transient stdio process). */
    exclusive = false,
    /** What the client declared in a 2025-era `initialize`: the requests for input it answers (through the relay). */
    declared: ClientCapabilities = {},
  ) {
    this.calls = new UpstreamCallRelay((): Attribution => (exclusive ? 'exclusive' : client.getProtocolEra() === 'modern' ? 'requested' : 'shared'));
    client.setNotificationHandler('notifications/message', (notification) => this.calls.receiveLog(notification.params));
    // What a 2025-era server asks Toolplane (which declared the capability) goes to the caller it is for.
    if (declared.sampling) client.setRequestHandler('sampling/createMessage', (request) => this.calls.answerInputRequest({ method: 'sampling/createMessage', params: request.params }) as never);
    if (declared.elicitation) client.setRequestHandler('elicitation/create', (request) => this.calls.answerInputRequest({ method: 'elicitation/create', params: request.params }) as never);
    const previous = client.onclose;
    client.onclose = () => {
      this.isClosed = true;
      this.closed();
      previous?.();
    };
  }

  get alive(): boolean {
    return !this.isClosed && (!(this.transport instanceof StdioProcessTransport) || this.transport.running);
  }

  /** Child process id for stdio connections. */
  get pid(): number | undefined {
    return this.transport instanceof StdioProcessTransport ? (this.transport.pid ?? undefined) : undefined;
  }

  /** Why the transport stopped on its own (stdio spawn failure or process exit), if it did. */
  get transportFailure(): Error | undefined {
    return this.transport instanceof StdioProcessTransport ? this.transport.failure : undefined;
  }

  /** The session a 2025-era server assigned, if any; 2026-07-28 connections have none. */
  get legacySessionId(): string | undefined {
    return this.client.getProtocolEra() === 'modern' ? undefined : (this.transport as { sessionId?: string }).sessionId;
  }

  get protocol(): NegotiatedProtocol {
    const era = this.client.getProtocolEra() ?? 'legacy';
    const server = this.client.getServerVersion();
    const discover = era === 'modern' ? this.client.getDiscoverResult() : undefined;
    return {
      era,
      protocolVersion: this.client.getNegotiatedProtocolVersion() ?? 'unknown',
      serverInfo: server ? { name: server.name, ...(server.version ? { version: server.version } : {}) } : undefined,
      // A plain-data copy: safe to persist and to hand back as `prior` later.
      discoverResult: discover === undefined ? undefined : JSON.parse(JSON.stringify(discover)),
    };
  }

  /** Before a stdio server's first JSON-RPC message: what it wrote instead (see StdioProcessTransport.startupReport). */
  get startupReport(): string | undefined {
    return this.transport instanceof StdioProcessTransport ? this.transport.startupReport() : undefined;
  }

  describe(error: unknown, phase: string, timeoutMs?: number): UpstreamError {
    return describeUpstreamFailure(error, {
      phase,
      timeoutMs,
      endpoint: this.identity.endpoint,
      secrets: this.identity.secrets,
      transportFailure: this.transportFailure,
      startup: this.startupReport,
    });
  }

  /**
   * Whether a 2026-07-28 connection takes task calls: its server declares the tasks extension, and
   * the connection has a raw request path for the extension's wire shapes.
   */
  get takesTaskCalls(): boolean {
    return this.directCaller !== undefined && isRecord(this.client.getServerCapabilities()?.extensions?.[TASKS_EXTENSION_ID_V2]);
  }

  /** Tool calls that may run as tasks upstream, over this connection's client (made on first use). */
  get tasks(): UpstreamTaskCalls {
    this.taskCalls ??= new ExtTasksCalls(this.client, this.identity.fingerprint, this.directCaller, (taskId, request) => this.calls.askForTask(taskId, request));
    return this.taskCalls;
  }

  /** Runs `listener` once, when the connection closes (either side). */
  whenClosed(listener: () => void): void {
    this.onClosed = listener;
  }

  private closed(): void {
    const listener = this.onClosed;
    this.onClosed = undefined;
    listener?.();
  }

  /** Closes the session; for stdio, resolves once the process group is gone. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const transport = this.transport;
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined && this.alive) {
      // Lets a sessionful (2025-era) server free the session right away; best effort.
      await Promise.race([transport.terminateSession().catch(() => undefined), delay(SESSION_TERMINATION_MS)]);
    }
    try {
      this.taskCalls?.close();
      await this.client.close();
    } finally {
      this.directCaller?.close();
      await transport.close().catch(() => undefined);
      this.isClosed = true;
      this.closed();
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
