/** The parts of the API's answers the console reads (see openapi.yaml). */
export interface Me {
  id: string;
  name: string;
  kind: string;
  roles: string[];
  permissions: string[];
  allowedSources: string[] | null;
  allowedTools: string[] | null;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface VariableView {
  name: string;
  origin: string;
  references: string[];
  declared: boolean;
  isSecret: boolean;
  isRequired: boolean;
  value?: string;
}

export interface Source {
  id: string;
  name: string;
  description: string | null;
  transport: 'stdio' | 'streamable-http' | 'sse';
  lifecycle: string | null;
  pluginDir: string | null;
  command: string | null;
  args: string[];
  cwd: string | null;
  url: string | null;
  env: VariableView[];
  headers: VariableView[];
  readOnly: boolean;
  timeoutMs: number;
  maxConcurrency: number;
  refreshIntervalSeconds: number;
  circuit: { state: string; consecutiveFailures: number; retryAt: string | null } | null;
  enabled: boolean;
  health: string;
  lastError: string | null;
  lastRefreshAt: string | null;
  toolCount: number;
  protocol: { era: string; version: string } | null;
  serverInfo: { name: string; version: string } | null;
  skippedTools?: { name: string; reason: string }[];
  version: number;
}

export interface Tool {
  id: string;
  qualifiedName: string;
  name: string;
  source: { id: string; name: string; enabled: boolean; readOnly: boolean };
  title: string | null;
  description: string | null;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema | null;
  annotations: Record<string, unknown> | null;
  definition: Record<string, unknown> | null;
  unusableReason: string | null;
  status: string;
  enabled: boolean;
  lastSeenAt: string;
}

export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  [key: string]: unknown;
}

export interface ContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string };
}

export interface Execution {
  id: string;
  qualifiedName: string;
  sourceName: string | null;
  caller: { principalId: string; principalName: string; clientName: string | null; correlationId: string | null } | null;
  channel: string;
  arguments: unknown;
  status: string;
  isError: boolean;
  result: { content?: ContentBlock[]; structuredContent?: unknown; truncated?: boolean; originalBytes?: number } | null;
  error: { code: string; message: string; retryable?: boolean; details?: { path: string; message: string }[] } | null;
  attempts: number;
  startedAt: string;
  durationMs: number | null;
  traceId?: string | null;
}

export interface StatsGroup {
  qualifiedName?: string;
  sourceName?: string;
  principalName?: string;
  count: number;
  errorCount: number;
  errorRate: number;
  p50DurationMs: number | null;
  p95DurationMs: number | null;
}

export interface AuditEvent {
  id: string;
  occurredAt: string;
  actor: string;
  action: string;
  targetType: string;
  targetId: string | null;
  targetName: string | null;
  details: unknown;
  seq: number;
  requestId: string | null;
}

export interface ApiKey {
  id: string;
  name: string;
  owner: string | null;
  role: string;
  prefix: string;
  state: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  allowedSources: string[] | null;
  allowedTools: string[] | null;
  key?: string;
}
