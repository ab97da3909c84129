import type { VariableDeclaration } from '../domain/manifest/env-declaration.js';
import type { SandboxSettings, SourceHealth, SourcePolicies } from '../domain/source-settings.js';
import type { Page } from '../../../shared/page.js';
import type { DiscoveryPrincipal, UpstreamAuth } from '../domain/upstream-auth.js';

/** How a source authenticates upstream, and (per-user modes) whose credential discovers its tools. */
export type UpstreamAuthView = UpstreamAuth & { discoveryPrincipal?: DiscoveryPrincipal };

/** How a variable is set, never its secret value. */
export interface VariableView {
  name: string;
  /** literal text, a reference, text mixed with references, or the manifest's default */
  origin: 'literal' | 'reference' | 'mixed' | 'default';
  /** e.g. `secret:GITHUB_TOKEN`, `env:GITHUB_API_URL` */
  references: string[];
  declared: boolean;
  isSecret: boolean;
  isRequired: boolean;
  /** Shown only for a literal the manifest declares as not secret. */
  value?: string;
}

export interface SourceView extends SourcePolicies {
  id: string;
  name: string;
  description: string | null;
  transport: string;
  lifecycle: string;
  pluginDir: string | null;
  manifest: { file: string; name: string; version: string; description?: string; env: VariableDeclaration[] } | null;
  command: string | null;
  args: string[];
  cwd: string | null;
  sandbox: Required<SandboxSettings>;
  url: string | null;
  env: VariableView[];
  headers: VariableView[];
  upstreamAuth: UpstreamAuthView;
  /** The breaker's state in the process that answered. */
  circuit: CircuitView;
  /** The discovery under way in the process that answered, if any. */
  discovery: DiscoveryView | null;
  enabled: boolean;
  health: SourceHealth;
  lastError: string | null;
  lastRefreshAt: string | null;
  lastSuccessAt: string | null;
  consecutiveFailures: number;
  toolCount: number;
  inventoryHash: string | null;
  protocol: { era: string; version: string } | null;
  serverInfo: { name: string; version?: string } | null;
  /** Tools the last discovery listed but could not keep, with the reasons. */
  skippedTools: { name: string; reason: string }[];
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface CircuitView {
  state: 'closed' | 'open' | 'half_open';
  consecutiveFailures: number;
  openedAt: string | null;
  retryAt: string | null;
}

export interface DiscoveryView {
  since: string;
  /** What it has got to, e.g. what a plugin wrote before it spoke MCP. */
  progress: string;
}

/** A view as storage has it, without what only the answering process knows. */
export type StoredSourceView = Omit<SourceView, 'circuit' | 'discovery'>;

export type SourcePage = Page<SourceView>;

export type StoredSourcePage = Page<StoredSourceView>;

/** Read side for sources: views straight from storage, bypassing the aggregate. */
export abstract class SourceViews {
  abstract get(idOrName: string): Promise<StoredSourceView | undefined>;
  abstract list(filter: { enabled?: boolean; health?: SourceHealth; transport?: string; q?: string }, cursor: string | undefined, limit: number): Promise<StoredSourcePage>;
}
