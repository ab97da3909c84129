/**
 * What the sources context knows about reaching an upstream MCP server, with every
 * env/header reference already resolved. Built by the application layer right before
 * a connection is needed and never persisted (resolved values may hold secrets).
 */
import type { KnownSecret } from '../../../shared/secret-scrubber.js';
import type { SandboxSettings, StdioLifecycle, TransportKind } from './source-settings.js';
import type { ToolDefinition } from '../../inventory/domain/tool-definition.js';
import type { UpstreamAuth } from './upstream-auth.js';

export type ProtocolEra = 'modern' | 'legacy';

export interface UpstreamTarget {
  sourceId: string;
  sourceName: string;
  transport: TransportKind;
  /** stdio only */
  lifecycle: StdioLifecycle;
  command?: string;
  args: string[];
  cwd?: string;
  /** stdio: the plugin directory the command came from, if any (visible in the sandbox). */
  pluginDir?: string;
  /** stdio: what the sandbox lets this source's processes see and do. */
  sandbox?: SandboxSettings;
  /** stdio: the declared variables only; the runtime adds its own allowlist (PATH, HOME, LANG, ...). */
  env: Record<string, string>;
  /** remote only */
  url?: string;
  headers: Record<string, string>;
  /**
   * The values in env and headers that must never be shown or stored: whatever came from a
   * `${secret:…}` or `${env:…}` reference, variables the manifest declares secret, and every header value.
   */
  secrets: readonly KnownSecret[];
  /** The era recorded by an earlier discovery; absent means "negotiate". */
  era?: ProtocolEra;
  /** Opaque modern-era discover result recorded with the era, reused to skip the probe. */
  discoverResult?: unknown;
  /** How the source authenticates upstream (copied from the source); absent: shared. */
  auth?: UpstreamAuth;
  /** The principal whose credential this target carries (per-user modes). */
  principalId?: string;
  /** The connection pool's key: `${sourceId}` for shared, `${sourceId}#${principalId}` per user. */
  poolKey?: string;
}

/** A tool as the upstream listed it; whether it can be called is the inventory's to decide. */
export type DiscoveredTool = Omit<ToolDefinition, 'unusableReason'>;

/** A tool an upstream listed that Toolplane could not keep, and why. */
export interface SkippedTool {
  name: string;
  reason: string;
}

export interface DiscoveryResult {
  tools: DiscoveredTool[];
  /** Tools listed but not kept (an unstorable name or text); the others are discovered as usual. */
  skippedTools?: SkippedTool[];
  era: ProtocolEra;
  protocolVersion: string;
  serverInfo?: { name: string; version?: string };
  discoverResult?: unknown;
}

export interface DiscoveryOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * Handed a function that says, whenever asked, what the discovery has got to (e.g. "connecting: the
   * plugin wrote nothing on stdout; its stderr ends with: …"), for an answer given before it ends.
   */
  onProgress?: (describe: () => string) => void;
}
