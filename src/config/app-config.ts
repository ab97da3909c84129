import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { envReferenceAllowList } from './env-reference-policy.js';
import { hostPolicyLists, type HostPolicyLists } from '../shared/host-policy.js';
import type { SchemaLimits } from '../shared/json-schema/schema-limits.js';
import { parseRetention } from './duration.js';
import type { LogLevel } from '../shared/logging/log-level.js';
import { isValidKey } from '../shared/crypto/encryption-key.js';

export type SandboxMode = 'auto' | 'required' | 'off';
/** Whether a call is answered after its record is flushed to disk (durable) or only committed (async). */
export type ExecutionCommit = 'durable' | 'async';


export interface AppConfig {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  adminKey?: string;
  authDisabled: boolean;
  encryptionKey?: string;
  /** A YAML file declaring sources (TOOLPLANE_CONFIG), applied at start; see docs/operations.md. */
  configFile?: string;
  /** Whether applying TOOLPLANE_CONFIG at start also removes sources it does not declare (TOOLPLANE_CONFIG_PRUNE). */
  configPrune: boolean;
  logLevel: LogLevel;
  /** Upper bound for the first discovery that registration waits for. */
  registrationWaitMs: number;
  /** Default timeout of one discovery (connect + every tools/list page). */
  discoveryTimeoutMs: number;
  /** How often the scheduler looks for sources due a refresh. */
  refreshTickMs: number;
  /** First retry of a failing discovery after this long, doubling up to the source's refresh interval. */
  refreshRetryInitialMs: number;
  /** Where bare stdio commands are looked up. */
  searchPath: string;
  /** Upper bound of any call's timeout, whatever the request or the source says. */
  maxCallTimeoutMs: number;
  /** A result larger than this (JSON bytes) is truncated with a marker. */
  maxResultBytes: number;
  /** The part of a result kept in the execution history. */
  storedResultBytes: number;
  /** How long shutdown waits for calls under way. */
  shutdownGraceMs: number;
  /** Tools per page of an MCP tools/list. */
  mcpPageSize: number;
  /**
   * How long an MCP call of a caller that can use tasks (2026-07-28 tasks extension) is answered
   * in its request before it becomes a task (TOOLPLANE_TASK_AFTER_MS; 0: never); null: never.
   */
  taskAfterMs: number | null;
  /** How long a task's call waits for its caller's input before it times out (TOOLPLANE_TASK_INPUT_WAIT_MS); the wait does not count against the call's timeout. */
  taskInputWaitMs: number;
  /**
   * The origins browsers and clients reach Toolplane under (TOOLPLANE_ALLOWED_ORIGINS), serialized
   * (`https://toolplane.example.com`); they replace the default. Undefined: the default, i.e. http on
   * the listen port under the loopback names and the listen address (every interface's when HOST is 0.0.0.0 or ::).
   */
  allowedOrigins?: string[];
  /**
   * Toolplane's own URL as people reach it (TOOLPLANE_PUBLIC_URL), for links it sends out (an
   * approval's notification links to the console under it); unset: the first allowed origin, else
   * http on the listen address and port.
   */
  publicUrl: string;
  /** How often approvals nobody decided in time are looked for and expired (TOOLPLANE_APPROVAL_SWEEP_MS). */
  approvalSweepMs: number;
  /** How stdio plugins are isolated: bubblewrap when usable (auto), refuse to start without it (required), or not at all (off). */
  sandbox: SandboxMode;
  /** The unprivileged user and group a sandboxed plugin runs as when Toolplane runs as root. */
  sandboxUid: number;
  sandboxGid: number;
  /** The bubblewrap executable. */
  sandboxBwrapPath: string;
  /** How much of an upstream's inputSchema is compiled; a tool over a limit is unusable. */
  schemaLimits: SchemaLimits;
  /** A held event loop longer than this is logged as a warning. */
  loopStallWarnMs: number;
  /** Calls per minute of a principal without a limit of its own (TOOLPLANE_RATE_LIMIT_PER_PRINCIPAL; 0: none). */
  rateLimitPerPrincipal: number;
  /** Failed authentications per minute from one client address before it is refused for a while. */
  authFailuresPerMinute: number;
  /** How often recorded executions are linked into their hash chain (TOOLPLANE_EXECUTION_SEAL_INTERVAL_MS). */
  executionSealIntervalMs: number;
  /** Whether a call's answer waits for its record to reach the disk (TOOLPLANE_EXECUTION_COMMIT). */
  executionCommit: ExecutionCommit;
  /** Executions that started longer ago than this are purged (TOOLPLANE_EXECUTION_RETENTION); null: kept forever. */
  executionRetentionMs: number | null;
  /** How often a purge pass looks for executions past the retention (TOOLPLANE_EXECUTION_PURGE_INTERVAL_MS). */
  executionPurgeIntervalMs: number;
  /** Executions deleted per transaction of a purge pass at most (TOOLPLANE_EXECUTION_PURGE_BATCH). */
  executionPurgeBatch: number;
  /** JWT bearer tokens from an OpenID Connect / OAuth issuer (TOOLPLANE_OIDC_*); absent: API keys only. */
  oidc?: OidcSettings;
  /** Calls that may wait for a slot of one source beyond its maxConcurrency (429 with Retry-After past it). */
  sourceQueueLimit: number;
  /** Connections (stdio: processes) of principals' own credentials kept per source, least recently used closed first. */
  principalPoolMax: number;
  /** A principal's own connection unused this long is closed (0: only when evicted). */
  principalPoolIdleMs: number;
  /** Hosts remote sources may and may not reach (TOOLPLANE_SOURCE_HOSTS_ALLOW / _DENY). */
  sourceHosts: HostPolicyLists;
  /** Variables Toolplane reads itself that sources may still refer to as `${env:NAME}` (TOOLPLANE_ENV_REFERENCES_ALLOW). */
  envReferencesAllow: string[];
  /** OpenTelemetry traces; off unless an OTLP endpoint or a traces exporter is configured (OTEL_*). */
  tracing: TracingSettings;
}

export interface TracingSettings {
  enabled: boolean;
  /** OTEL_SERVICE_NAME, else `toolplane`. */
  serviceName: string;
  /** Whether spans carry tool arguments and results (TOOLPLANE_TRACE_PAYLOADS), secrets scrubbed. */
  payloads: boolean;
}

const SANDBOX_MODES: readonly SandboxMode[] = ['auto', 'required', 'off'];
const EXECUTION_COMMITS: readonly ExecutionCommit[] = ['durable', 'async'];
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

/** The only reader of process.env: every setting typed and checked at boot, all problems at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  /** One of `values`, read case-insensitively; unset or empty: `fallback`. */
  const oneOf = <T extends string>(name: string, values: readonly T[], fallback: T): T => {
    const value = env[name]?.trim().toLowerCase() || fallback;
    if ((values as readonly string[]).includes(value)) return value as T;
    problems.push(`${name} must be one of ${values.join(', ')} (got "${env[name]}")`);
    return fallback;
  };

  const host = env.HOST?.trim() || '127.0.0.1';
  const configPrune = (env.TOOLPLANE_CONFIG_PRUNE?.trim().toLowerCase() || 'false') === 'true';
  if (env.TOOLPLANE_CONFIG_PRUNE && !['true', 'false'].includes(env.TOOLPLANE_CONFIG_PRUNE.trim().toLowerCase())) {
    problems.push(`TOOLPLANE_CONFIG_PRUNE must be "true" or "false" (got "${env.TOOLPLANE_CONFIG_PRUNE}")`);
  }
  if (env.TOOLPLANE_CONFIG_PRUNE && !env.TOOLPLANE_CONFIG?.trim()) problems.push('TOOLPLANE_CONFIG_PRUNE needs TOOLPLANE_CONFIG (the file to apply)');
  const authDisabled = env.TOOLPLANE_AUTH?.toLowerCase() === 'off';
  if (env.TOOLPLANE_AUTH && !['on', 'off'].includes(env.TOOLPLANE_AUTH.toLowerCase())) {
    problems.push(`TOOLPLANE_AUTH must be "on" or "off" (got "${env.TOOLPLANE_AUTH}")`);
  }
  if (authDisabled && !isLoopback(host)) {
    problems.push(`TOOLPLANE_AUTH=off is only allowed when HOST is a loopback address (HOST is "${host}")`);
  }
  const logLevel = (env.LOG_LEVEL?.toLowerCase() || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const sandbox = oneOf('TOOLPLANE_SANDBOX', SANDBOX_MODES, 'auto');
  const executionCommit = oneOf('TOOLPLANE_EXECUTION_COMMIT', EXECUTION_COMMITS, 'durable');
  const sandboxBwrapPath = env.TOOLPLANE_SANDBOX_BWRAP?.trim() || '/usr/bin/bwrap';
  if (!sandboxBwrapPath.startsWith('/')) problems.push('TOOLPLANE_SANDBOX_BWRAP must be an absolute path');

  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const encryptionKey = env.TOOLPLANE_ENCRYPTION_KEY?.trim() || undefined;
  if (encryptionKey && !isValidKey(encryptionKey)) {
    problems.push('TOOLPLANE_ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64');
  }
  const adminKey = env.TOOLPLANE_ADMIN_KEY?.trim() || undefined;
  if (adminKey && adminKey.length < 16) problems.push('TOOLPLANE_ADMIN_KEY must be at least 16 characters');

  const retention = parseRetention(env.TOOLPLANE_EXECUTION_RETENTION?.trim() || '30d');
  if ('problem' in retention) problems.push(`TOOLPLANE_EXECUTION_RETENTION ${retention.problem}`);

  const oidc = oidcSettings(env, int, problems);
  const allowedOrigins = originList('TOOLPLANE_ALLOWED_ORIGINS', env.TOOLPLANE_ALLOWED_ORIGINS, problems);
  const port = int('PORT', 8080, 0, 65535);
  const publicUrl = originList('TOOLPLANE_PUBLIC_URL', env.TOOLPLANE_PUBLIC_URL, problems)?.[0] ?? allowedOrigins?.[0] ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const tracing = tracingSettings(env, problems);
  const sourceHosts = hostPolicyLists(env.TOOLPLANE_SOURCE_HOSTS_ALLOW, env.TOOLPLANE_SOURCE_HOSTS_DENY);
  const envReferences = envReferenceAllowList(env.TOOLPLANE_ENV_REFERENCES_ALLOW);
  const config: AppConfig = {
    port,
    host,
    databaseUrl,
    dataDir: resolve(env.TOOLPLANE_DATA_DIR?.trim() || './.toolplane'),
    adminKey,
    authDisabled,
    encryptionKey,
    configFile: env.TOOLPLANE_CONFIG?.trim() ? resolve(env.TOOLPLANE_CONFIG.trim()) : undefined,
    configPrune,
    logLevel,
    registrationWaitMs: int('TOOLPLANE_REGISTRATION_WAIT_MS', 30_000, 100, 600_000),
    discoveryTimeoutMs: int('TOOLPLANE_DISCOVERY_TIMEOUT_MS', 30_000, 100, 600_000),
    refreshTickMs: int('TOOLPLANE_REFRESH_TICK_MS', 1_000, 100, 3_600_000),
    refreshRetryInitialMs: int('TOOLPLANE_REFRESH_RETRY_INITIAL_MS', 2_000, 100, 3_600_000),
    searchPath: env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    maxCallTimeoutMs: int('TOOLPLANE_MAX_CALL_TIMEOUT_MS', 600_000, 100, 3_600_000),
    maxResultBytes: int('TOOLPLANE_MAX_RESULT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    storedResultBytes: int('TOOLPLANE_STORED_RESULT_BYTES', 64 * 1024, 1024, 16 * 1024 * 1024),
    shutdownGraceMs: int('TOOLPLANE_SHUTDOWN_GRACE_MS', 20_000, 0, 600_000),
    mcpPageSize: int('TOOLPLANE_MCP_PAGE_SIZE', 1000, 10, 10_000),
    taskAfterMs: int('TOOLPLANE_TASK_AFTER_MS', 30_000, 0, 3_600_000) || null,
    taskInputWaitMs: int('TOOLPLANE_TASK_INPUT_WAIT_MS', 3_600_000, 1_000, 7 * 86_400_000),
    allowedOrigins,
    publicUrl,
    approvalSweepMs: int('TOOLPLANE_APPROVAL_SWEEP_MS', 5000, 100, 3_600_000),
    sandbox,
    sandboxUid: int('TOOLPLANE_SANDBOX_UID', 65534, 1, 4_294_967_294),
    sandboxGid: int('TOOLPLANE_SANDBOX_GID', 65534, 1, 4_294_967_294),
    sandboxBwrapPath,
    sourceHosts: sourceHosts.lists,
    envReferencesAllow: envReferences.names,
    sourceQueueLimit: int('TOOLPLANE_SOURCE_QUEUE_LIMIT', 1000, 0, 100_000),
    principalPoolMax: int('TOOLPLANE_PRINCIPAL_POOL_MAX', 64, 1, 10_000),
    principalPoolIdleMs: int('TOOLPLANE_PRINCIPAL_POOL_IDLE_MS', 300_000, 0, 86_400_000),
    loopStallWarnMs: int('TOOLPLANE_LOOP_STALL_WARN_MS', 100, 10, 60_000),
    rateLimitPerPrincipal: int('TOOLPLANE_RATE_LIMIT_PER_PRINCIPAL', 0, 0, 100_000_000),
    authFailuresPerMinute: int('TOOLPLANE_AUTH_FAILURES_PER_MINUTE', 60, 1, 1_000_000),
    executionSealIntervalMs: int('TOOLPLANE_EXECUTION_SEAL_INTERVAL_MS', 1000, 50, 3_600_000),
    executionCommit,
    executionRetentionMs: 'ms' in retention ? retention.ms : null,
    executionPurgeIntervalMs: int('TOOLPLANE_EXECUTION_PURGE_INTERVAL_MS', 300_000, 1000, 86_400_000),
    executionPurgeBatch: int('TOOLPLANE_EXECUTION_PURGE_BATCH', 5000, 100, 50_000),
    ...(oidc ? { oidc } : {}),
    tracing,
    schemaLimits: {
      maxBytes: int('TOOLPLANE_SCHEMA_MAX_BYTES', 128 * 1024, 1024, 16 * 1024 * 1024),
      maxDepth: int('TOOLPLANE_SCHEMA_MAX_DEPTH', 32, 4, 256),
      maxPatterns: int('TOOLPLANE_SCHEMA_MAX_PATTERNS', 50, 0, 10_000),
      maxObjects: int('TOOLPLANE_SCHEMA_MAX_OBJECTS', 1000, 10, 100_000),
    },
  };
  problems.push(...sourceHosts.problems, ...envReferences.problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * Traces are on when an OTLP endpoint is named (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or OTEL_TRACES_EXPORTER names an exporter; the SDK reads the
 * other OTEL_* settings itself.
 */
function tracingSettings(env: NodeJS.ProcessEnv, problems: string[]): TracingSettings {
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const disabled = env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true';
  const enabled = !disabled && (exporter ? exporter !== 'none' : Boolean(endpoint));
  const payloadsRaw = env.TOOLPLANE_TRACE_PAYLOADS?.trim().toLowerCase() || 'false';
  if (!['true', 'false'].includes(payloadsRaw)) problems.push(`TOOLPLANE_TRACE_PAYLOADS must be "true" or "false" (got "${env.TOOLPLANE_TRACE_PAYLOADS}")`);
  for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] as const) {
    const value = env[name]?.trim();
    if (value && !/^https?:\/\/[^\s]+$/.test(value)) problems.push(`${name} must be an http(s) URL (got "${value}")`);
  }
  return { enabled, serviceName: env.OTEL_SERVICE_NAME?.trim() || 'toolplane', payloads: payloadsRaw === 'true' };
}

/** A comma-separated list of origins (scheme://host[:port], nothing more), each serialized; undefined when unset. */
function originList(name: string, raw: string | undefined, problems: string[]): string[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const origins: string[] = [];
  for (const entry of raw.split(',').map((item) => item.trim())) {
    if (entry === '') continue;
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    const bare = url && (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash;
    if (!url || !bare || !/^https?:\/\/[^/?#]+\/?$/i.test(entry)) {
      problems.push(`${name} must list origins like https://toolplane.example.com or http://127.0.0.1:8080, comma-separated (got "${entry}")`);
      continue;
    }
    origins.push(url.origin);
  }
  if (origins.length === 0) problems.push(`${name} is set but lists no origin`);
  return origins;
}

export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '[::1]';
}

/** Injection token for the loaded configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');

export interface OidcSettings {
  /** The issuer (`iss`) tokens must carry, exactly. */
  issuer: string;
  /** Where its signing keys are; absent: from the issuer's discovery document. */
  jwksUrl?: string;
  /**
   * Toolplane's canonical resource URI (RFC 8707): a token's `aud` must be it, or a URI under it
   * (an MCP endpoint such as <audience>/mcp). A token minted for another resource is refused.
   */
  audience: string;
  /** Claim (a dotted path such as `realm_access.roles`) holding role names; `scope` is read too. */
  rolesClaim: string;
  allowedSourcesClaim: string;
  allowedToolsClaim: string;
  allowedGroupsClaim: string;
  clockSkewSeconds: number;
  /** After fetching the issuer's keys, how long before a token with an unknown `kid` may fetch them again. */
  jwksCooldownSeconds: number;
  /** The console's public client at the issuer (authorization code with PKCE); absent: the console signs in with API keys only. */
  consoleClientId?: string;
  /** The scopes the console asks for. */
  consoleScopes: string;
}

function oidcSettings(
  env: NodeJS.ProcessEnv,
  int: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): OidcSettings | undefined {
  const issuer = env.TOOLPLANE_OIDC_ISSUER?.trim();
  if (!issuer) return undefined;
  const audience = env.TOOLPLANE_OIDC_AUDIENCE?.trim() ?? '';
  const jwksUrl = env.TOOLPLANE_OIDC_JWKS_URL?.trim() || undefined;
  for (const [name, value] of [['TOOLPLANE_OIDC_ISSUER', issuer], ['TOOLPLANE_OIDC_AUDIENCE', audience], ['TOOLPLANE_OIDC_JWKS_URL', jwksUrl]] as const) {
    if (value === undefined) continue;
    if (!/^https?:\/\/[^\s]+$/.test(value)) problems.push(`${name} must be an http(s) URL${name === 'TOOLPLANE_OIDC_AUDIENCE' ? ' (required with TOOLPLANE_OIDC_ISSUER: Toolplane\'s own public URL)' : ''}`);
  }
  return {
    issuer,
    ...(jwksUrl ? { jwksUrl } : {}),
    audience: audience.replace(/\/+$/, ''),
    rolesClaim: env.TOOLPLANE_OIDC_ROLES_CLAIM?.trim() || 'roles',
    allowedSourcesClaim: env.TOOLPLANE_OIDC_ALLOWED_SOURCES_CLAIM?.trim() || 'toolplane_allowed_sources',
    allowedToolsClaim: env.TOOLPLANE_OIDC_ALLOWED_TOOLS_CLAIM?.trim() || 'toolplane_allowed_tools',
    allowedGroupsClaim: env.TOOLPLANE_OIDC_ALLOWED_GROUPS_CLAIM?.trim() || 'toolplane_allowed_groups',
    clockSkewSeconds: int('TOOLPLANE_OIDC_CLOCK_SKEW_SECONDS', 60, 0, 300),
    jwksCooldownSeconds: int('TOOLPLANE_OIDC_JWKS_COOLDOWN_SECONDS', 30, 0, 3600),
    ...(env.TOOLPLANE_OIDC_CONSOLE_CLIENT_ID?.trim() ? { consoleClientId: env.TOOLPLANE_OIDC_CONSOLE_CLIENT_ID.trim() } : {}),
    consoleScopes: env.TOOLPLANE_OIDC_CONSOLE_SCOPES?.trim() || 'openid',
  };
}
