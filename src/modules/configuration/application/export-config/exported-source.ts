import { maskUrlCredentials } from '../../../../shared/url-credentials.js';
import type { VariableDeclaration } from '../../../sources/domain/manifest/env-declaration.js';
import type { SourceProps } from '../../../sources/domain/source.js';
import {
  DEFAULT_PINNING,
  DEFAULT_CIRCUIT_BREAKER,
  DEFAULT_MAX_CONCURRENCY,
  DEFAULT_REFRESH_INTERVAL_SECONDS,
  DEFAULT_TIMEOUT_MS,
} from '../../../sources/domain/source-settings.js';
import { parseTemplate } from '../../../sources/domain/value-template.js';
import { sameSetting, STORED_VALUE } from '../../domain/config-plan.js';

/** Literal text that may stand beside references in an exported header: an auth scheme, never a credential. */
const AUTH_SCHEME = /^\s*(Bearer|Basic|Token|Bot|ApiKey)\s*$/i;

/**
 * A live source as an entry of the file's `sources:`, in the registration shape, with only what
 * differs from the defaults. Nothing secret is written: references stay references, literal
 * values appear only where a manifest declares them not secret, and anything else (a literal
 * token, a URL with a credential in its query) is written as `${stored}`, which applying keeps.
 */
export function exportedSource(source: Readonly<SourceProps>): Record<string, unknown> {
  const out: Record<string, unknown> = { name: source.name };
  if (source.description !== null) out.description = source.description;
  out.transport = source.transport;
  if (source.transport === 'stdio') {
    if (source.lifecycle !== 'transient') out.lifecycle = source.lifecycle;
    if (source.pluginDir !== null) out.pluginDir = source.pluginDir;
    if (!source.commandFromManifest) {
      out.command = source.command;
      if (source.args.length > 0) out.args = [...source.args];
    }
    // A plugin directory with a manifest runs there unless told otherwise.
    const derivedCwd = source.manifest !== null && source.cwd === source.pluginDir;
    if (source.cwd !== null && !derivedCwd) out.cwd = source.cwd;
    const sandbox = exportedSandbox(source.sandbox);
    if (sandbox) out.sandbox = sandbox;
    const env = exportedValues(source.env, source.manifest?.env ?? []);
    if (env) out.env = env;
  } else {
    out.url = source.url !== null && maskUrlCredentials(source.url) !== source.url ? STORED_VALUE : source.url;
    const headers = exportedValues(source.headers, source.manifest?.headers ?? []);
    if (headers) out.headers = headers;
  }
  if (source.upstreamAuth) out.upstreamAuth = structuredClone(source.upstreamAuth);
  if (source.readOnly) out.readOnly = true;
  if (source.timeoutMs !== DEFAULT_TIMEOUT_MS) out.timeoutMs = source.timeoutMs;
  if (source.maxConcurrency !== DEFAULT_MAX_CONCURRENCY) out.maxConcurrency = source.maxConcurrency;
  if (source.rateLimitPerMinute !== null) out.rateLimitPerMinute = source.rateLimitPerMinute;
  if (source.refreshIntervalSeconds !== DEFAULT_REFRESH_INTERVAL_SECONDS) out.refreshIntervalSeconds = source.refreshIntervalSeconds;
  if (!sameSetting(source.circuitBreaker, DEFAULT_CIRCUIT_BREAKER)) out.circuitBreaker = { ...source.circuitBreaker };
  if (source.pinning !== DEFAULT_PINNING) out.pinning = source.pinning;
  if (!source.enabled) out.enabled = false;
  return out;
}

function exportedSandbox(sandbox: Readonly<SourceProps['sandbox']>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  if (sandbox.network === false) out.network = false;
  if (sandbox.readOnlyPaths?.length) out.readOnlyPaths = [...sandbox.readOnlyPaths];
  if (sandbox.writablePaths?.length) out.writablePaths = [...sandbox.writablePaths];
  return Object.keys(out).length > 0 ? out : undefined;
}

function exportedValues(values: Readonly<Record<string, string>>, declarations: readonly VariableDeclaration[]): Record<string, string> | undefined {
  const entries = Object.entries(values);
  if (entries.length === 0) return undefined;
  const declared = new Map(declarations.map((d) => [d.name, d]));
  return Object.fromEntries(entries.map(([name, template]) => [name, exportedValue(template, declared.get(name))]));
}

export function exportedValue(template: string, declaration: VariableDeclaration | undefined): string {
  if (template === '') return template;
  const parsed = parseTemplate(template);
  if (parsed.problems.length > 0) return STORED_VALUE;
  const literal = template.replace(/\$\{[^}]*\}/g, '');
  if (literal === '' && parsed.references.length > 0) return template;
  if (declaration && !declaration.isSecret) return template;
  if (parsed.references.length > 0 && AUTH_SCHEME.test(literal)) return template;
  return STORED_VALUE;
}
