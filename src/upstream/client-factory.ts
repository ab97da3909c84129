import {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  type ClientCapabilities,
  type FetchLike,
  type DiscoverResult,
  type PriorDiscovery,
  type Transport,
} from '@modelcontextprotocol/client';
import type { UpstreamTarget } from '../modules/sources/domain/upstream.js';
import type { Deadline } from './deadline.js';
import { DirectToolCaller, type DirectCaller, type NegotiatedSession } from './http/direct-tool-call.js';
import { StdioDirectToolCaller } from './stdio/stdio-direct-tool-call.js';
import { KeepAliveRpcPoster } from './http/keep-alive-rpc-poster.js';
import { sessionBoundSseTransport } from './http/session-bound-sse-transport.js';
import { DEFAULT_MAX_MESSAGE_BYTES, RequestScopedHttpTransport } from './http/request-scoped-http-transport.js';
import type { HostPolicy } from '../shared/host-policy.js';
import type { SchemaLimits } from '../shared/json-schema/schema-limits.js';
import { SecretScrubber } from '../shared/secret-scrubber.js';
import { guardedFetch } from './http/guarded-network.js';
import { speaksLegacySse } from './http/legacy-sse-probe.js';
import { abortSignalOf } from '../shared/caller-signal.js';
import { isEventStream, reworkLargeMessages } from './http/large-message-rework.js';
import { largeMessagesOffThread } from '../shared/off-thread/large-message.js';
import { McpConnection, type ConnectionIdentity } from './mcp-connection.js';
import { LEGACY_INPUT_CAPABILITIES, ToolplaneClient } from './toolplane-client.js';
import { fetchWithNetworkDetail } from './network-fetch.js';
import { listenForToolChanges } from './tool-change-listener.js';
import { missingResultTypeNotice } from './missing-result-type.js';
import { buildChildEnvironment } from './stdio/child-environment.js';
import { StdioProcessExitError } from './stdio/stdio-errors.js';
import type { PluginHomes } from './stdio/plugin-homes.js';
import type { SandboxPolicy } from './stdio/sandbox.js';
import { StdioProcessTransport } from './stdio/stdio-process-transport.js';
import { connectionFingerprint, endpointLabel, secretValues } from './upstream-endpoint.js';
import { mayStemFromStaleEra, UpstreamError } from './upstream-error.js';
import { isRecord } from '../shared/is-record.js';

export interface StdioSettings {
  /** Longest accepted JSON-RPC message on a server's stdout, in bytes (default 4 MiB). */
  maxLineBytes?: number;
  /** How much of a server's stderr is kept for error messages (default 16 KiB). */
  stderrTailBytes?: number;
  /** SIGTERM → SIGKILL grace when closing (default 2 s). */
  killGraceMs?: number;
  /** Receives every stderr line of every stdio server, the source's secrets scrubbed (e.g. for logging). */
  onStderrLine?: (sourceId: string, line: string) => void;
  /** Run every stdio server in this sandbox, with each source's own sandbox settings (absent: unsandboxed). */
  sandbox?: SandboxPolicy;
  /** Each source's persistent home, the HOME of its sandboxed servers (absent: their private /tmp). */
  homes?: PluginHomes;
}

export interface HttpSettings {
  /** Longest accepted response message (a JSON body or one SSE event), in bytes (default 4 MiB). */
  maxMessageBytes?: number;
  /** Which hosts remote sources may reach, checked on the resolved address at connect time (absent: any). */
  hostPolicy?: HostPolicy;
}

export interface PoolSettings {
  /** A pooled connection unused for this long is closed (its process stopped); 0 keeps it forever. Default 10 minutes. */
  idleTimeoutMs?: number;
  /** Wait before reconnecting after consecutive failures: `initialMs` doubling up to `maxMs` (100 ms to 5 s). */
  restartBackoff?: { initialMs?: number; maxMs?: number };
  /** Connections of principals' own (a per-user credential) kept per source; the least recently used goes first. Default 64. */
  principalMax?: number;
  /** A principal's own connection unused for this long is closed; 0 keeps it until evicted. Default 5 minutes. */
  principalIdleTimeoutMs?: number;
}

export interface ClientFactorySettings {
  /** Schemas over these limits are replaced in a tools/list result before the SDK reads it (see trimOversizedSchemas). */
  schemaLimits?: SchemaLimits;
  stdio?: StdioSettings;
  http?: HttpSettings;
  pool?: PoolSettings;
  /**
   * Client capabilities declared on 2026-07-28 connections, where the server asks for input
   * through `input_required` results that Toolplane hands back to its caller (default: form
   * elicitation). 2025-era connections declare LEGACY_INPUT_CAPABILITIES.
   */
  modernInputCapabilities?: ClientCapabilities;
  /** Told when a connected session to an upstream ends: its transport (`tcp`, `pipe`) and how long it lasted. */
  onSessionEnded?: (transport: 'tcp' | 'pipe', seconds: number) => void;
}

export const DEFAULT_MODERN_INPUT_CAPABILITIES: ClientCapabilities = { elicitation: { form: {} } };

/** The SDK transport for a target: our own stdio transport, Streamable HTTP or legacy SSE. */
export function createUpstreamTransport(target: UpstreamTarget, settings: ClientFactorySettings = {}): Transport {
  switch (target.transport) {
    case 'stdio': {
      if (!target.command) throw new UpstreamError('configuration', 'stdio source has no command');
      try {
        buildChildEnvironment(target.env);
      } catch (error) {
        throw new UpstreamError('configuration', (error as Error).message);
      }
      const stdio = settings.stdio ?? {};
      const onStderrLine = stdio.onStderrLine;
      let home: string | undefined;
      try {
        home = stdio.sandbox ? stdio.homes?.prepare(target.sourceId) : undefined;
      } catch (error) {
        throw new UpstreamError('configuration', `could not make the plugin's home: ${(error as Error).message}`);
      }
      const scrubber = SecretScrubber.of(target.secrets);
      return new StdioProcessTransport({
        command: target.command,
        args: target.args,
        cwd: target.cwd,
        env: target.env,
        maxLineBytes: stdio.maxLineBytes,
        stderrTailBytes: stdio.stderrTailBytes,
        killGraceMs: stdio.killGraceMs,
        onStderrLine: onStderrLine ? (line) => onStderrLine(target.sourceId, line) : undefined,
        scrub: (text) => scrubber.text(text),
        schemaLimits: settings.schemaLimits,
        sandbox: stdio.sandbox ? { policy: stdio.sandbox, pluginDir: target.pluginDir, settings: target.sandbox, home } : undefined,
      });
    }
    case 'streamable-http':
      // The configured headers ride on every POST, GET and DELETE.
      return new RequestScopedHttpTransport(remoteUrl(target), {
        requestInit: { headers: { ...target.headers } },
        fetch: remoteFetch(settings),
        maxMessageBytes: settings.http?.maxMessageBytes,
        schemaLimits: settings.schemaLimits,
      });
    case 'sse':
      // The configured headers ride on the event stream's GET and on the message POSTs.
      return sessionBoundSseTransport(remoteUrl(target), { ...target.headers }, reworkingEventStreams(remoteFetch(settings), settings.schemaLimits));
    default:
      throw new UpstreamError('configuration', `unsupported transport: ${String((target as { transport: unknown }).transport)}`);
  }
}

/**
 * @param probeTimeoutMs how long the `server/discover` probe may go unanswered; on stdio silence
 *   means a legacy server, so this leaves the `initialize` fallback part of the budget.
 */
export function createUpstreamClient(probeTimeoutMs?: number, settings: ClientFactorySettings = {}, onMissingResultType?: () => void): ToolplaneClient {
  const client = new ToolplaneClient(settings.modernInputCapabilities ?? DEFAULT_MODERN_INPUT_CAPABILITIES, probeTimeoutMs, settings.schemaLimits, onMissingResultType);
  // Transport hiccups (stray stdout lines, dropped oversized messages) surface through the
  // failing request or the connection's transportFailure; the callback only keeps them handled.
  client.onerror = () => undefined;
  return client;
}

/** The recorded era verdict as the SDK's `prior`, or undefined to negotiate. */
export function priorFor(target: UpstreamTarget): PriorDiscovery | undefined {
  if (target.era === 'legacy') return { kind: 'legacy' };
  if (target.era === 'modern' && isRecord(target.discoverResult)) {
    return { kind: 'modern', discover: target.discoverResult as DiscoverResult };
  }
  return undefined;
}

/**
 * Creates the transport and client for `target` and connects within the deadline. A recorded era
 * skips the probe. Two recoveries, each at most once: a recorded era the server rejects is
 * re-negotiated, and a stdio server that exits on the `server/discover` probe (older SDKs
 * terminate on any request before `initialize`) is restarted as a legacy server.
 */
export async function connectUpstream(target: UpstreamTarget, deadline: Deadline, settings: ClientFactorySettings = {}, options: ConnectOptions = {}): Promise<McpConnection> {
  const prior = priorFor(target);
  try {
    return await connectOnce(target, prior, deadline, settings, options);
  } catch (error) {
    if (!(error instanceof UpstreamError) || deadline.signal.aborted) throw error;
    if (prior && mayStemFromStaleEra(error)) return connectOnce(target, undefined, deadline, settings, options);
    if (!prior && target.transport === 'stdio' && error.cause instanceof ProbeExit) {
      return connectOnce(target, { kind: 'legacy' }, deadline, settings, options);
    }
    throw error;
  }
}

export interface ConnectOptions {
  /** Listen for the server's announcements that its tools changed (for connections kept open). */
  onToolsChanged?: () => void;
  /** Told of each connection as it is made, before it is connected (a second one when the era is negotiated again). */
  onConnection?: (connection: McpConnection) => void;
}

async function connectOnce(
  target: UpstreamTarget,
  prior: PriorDiscovery | undefined,
  deadline: Deadline,
  settings: ClientFactorySettings,
  options: ConnectOptions,
): Promise<McpConnection> {
  const identity = identityOf(target);
  const transport = createUpstreamTransport(target, settings);
  const onMissingResultType = missingResultTypeNotice(target);
  const client = createUpstreamClient(target.transport === 'stdio' ? Math.max(1, Math.floor(deadline.remainingMs() / 2)) : undefined, settings, onMissingResultType);
  const exclusive = target.transport === 'stdio' && target.lifecycle !== 'singleton';
  const connection = new McpConnection(client, transport, identity, directCallerFor(target, client, transport, settings, onMissingResultType), exclusive, LEGACY_INPUT_CAPABILITIES);
  options.onConnection?.(connection);
  try {
    await deadline.run('connecting', () => client.connect(transport, { ...deadline.requestOptions(), ...(prior ? { prior } : {}) }));
    const onSessionEnded = settings.onSessionEnded;
    if (onSessionEnded) {
      const opened = performance.now();
      connection.whenClosed(() => onSessionEnded(target.transport === 'stdio' ? 'pipe' : 'tcp', (performance.now() - opened) / 1000));
    }
    if (options.onToolsChanged) listenForToolChanges(client, endpointLabel(target), options.onToolsChanged);
    return connection;
  } catch (error) {
    await connection.close().catch(() => undefined);
    const described = connection.describe(error, 'connecting', deadline.timeoutMs);
    const failure = connection.transportFailure;
    if (!prior && failure instanceof StdioProcessExitError && failure.signal === null) {
      // Remember that the process ended by itself during negotiation (see connectUpstream).
      throw new UpstreamError(described.kind, described.message, { cause: new ProbeExit(failure) });
    }
    if (target.transport === 'streamable-http' && REFUSED_POST.has(described.httpStatus ?? 0)) {
      const sse = await speaksLegacySse(remoteUrl(target), { ...target.headers }, remoteFetch(settings), abortSignalOf(deadline.signal));
      if (sse) {
        throw new UpstreamError(described.kind, `${identity.endpoint} answered a Streamable HTTP POST with HTTP ${described.httpStatus} and speaks the legacy SSE transport: register it with transport: sse`, {
          cause: error,
          httpStatus: described.httpStatus,
        });
      }
    }
    throw described;
  }
}

/**
 * Streamable HTTP connections call tools directly over a keep-alive pool, stdio connections by
 * writing to the process, reusing what the SDK client negotiated (era, version, session); the
 * client carries everything else.
 */
function directCallerFor(target: UpstreamTarget, client: ToolplaneClient, transport: Transport, settings: ClientFactorySettings, onMissingResultType: () => void): DirectCaller | undefined {
  const negotiated = (sessionId?: () => string | undefined) => (): NegotiatedSession => ({
    era: client.getProtocolEra() ?? 'legacy',
    protocolVersion: client.getNegotiatedProtocolVersion() ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
    ...(sessionId?.() !== undefined ? { sessionId: sessionId() } : {}),
    metaEnvelope: () => client.metaEnvelope(),
  });
  if (transport instanceof StdioProcessTransport) return new StdioDirectToolCaller(transport, negotiated(), onMissingResultType);
  if (target.transport !== 'streamable-http' || !(transport instanceof RequestScopedHttpTransport)) return undefined;
  const poster = new KeepAliveRpcPoster(remoteUrl(target), { ...target.headers }, settings.http?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, settings.http?.hostPolicy);
  return new DirectToolCaller(poster, negotiated(() => transport.sessionId), onMissingResultType);
}

function identityOf(target: UpstreamTarget): ConnectionIdentity {
  return {
    sourceId: target.sourceId,
    transport: target.transport,
    endpoint: endpointLabel(target),
    secrets: secretValues(target),
    fingerprint: connectionFingerprint(target),
  };
}

function remoteUrl(target: UpstreamTarget): URL {
  if (!target.url) throw new UpstreamError('configuration', `${target.transport} source has no url`);
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    throw new UpstreamError('configuration', `${target.transport} source has an invalid url`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UpstreamError('configuration', `${target.transport} source url must be http or https, got ${url.protocol}`);
  }
  return url;
}


/** What a legacy SSE endpoint may answer to a Streamable HTTP POST. */
const REFUSED_POST: ReadonlySet<number> = new Set([400, 404, 405]);

class ProbeExit extends Error {
  constructor(readonly exit: StdioProcessExitError) {
    super(exit.message, { cause: exit });
    this.name = 'ProbeExit';
  }
}

const guardedFetches = new WeakMap<HostPolicy, FetchLike>();

/** Large messages on an event stream are parsed on the worker thread (see reworkLargeMessages). */
function reworkingEventStreams(fetch: FetchLike, schemaLimits?: SchemaLimits): FetchLike {
  if (!largeMessagesOffThread()) return fetch;
  return async (url, init) => {
    const response = await fetch(url, init);
    if (!isEventStream(response) || response.body === null) return response;
    return new Response(reworkLargeMessages(response.body, true, schemaLimits), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The fetch remote transports use: guarded by the host policy when there is one (one connection pool per policy). */
function remoteFetch(settings: ClientFactorySettings): FetchLike {
  const policy = settings.http?.hostPolicy;
  if (!policy) return fetchWithNetworkDetail;
  let fetch = guardedFetches.get(policy);
  if (!fetch) guardedFetches.set(policy, (fetch = guardedFetch(policy)));
  return fetch;
}
