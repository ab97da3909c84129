import type { ExecutionView } from '../application/execution-view.js';
import type { ExecutionError, ExecutionRecord } from '../domain/execution.js';
import type { ExecutionTask } from '../domain/execution-task.js';

let made = 0;

/** The n-th uuid of a spec: `00000000-0000-4000-8000-` and n in 12 hex digits (so they sort as n does). */
export function anExecutionId(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** A call of `files__read` by key_1 that succeeded, each one a second after the one made before it, with `overrides`. */
export function anExecution(overrides: Partial<ExecutionView> = {}): ExecutionView {
  made += 1;
  return {
    id: anExecutionId(made),
    toolId: null,
    qualifiedName: 'files__read',
    sourceId: '00000000-0000-4000-9000-000000000001',
    sourceName: 'files',
    group: null,
    interceptors: [],
    definitionHash: null,
    caller: { principalId: 'key_1', principalName: 'ci' },
    channel: 'rest',
    arguments: { path: '/tmp/a' },
    status: 'succeeded',
    isError: false,
    result: { content: [{ type: 'text', text: 'a' }], truncated: false, originalBytes: 1 },
    error: null,
    attempts: 1,
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, made)).toISOString(),
    durationMs: 10,
    traceId: null,
    ...overrides,
  };
}

/** The record of a call of `crm__find` by alice (an OIDC sign-in) over MCP, refused before it ran with `error`, with `changes`. */
export function aRefusedRecord(error: ExecutionError, changes: Partial<ExecutionRecord> = {}): ExecutionRecord {
  return {
    id: anExecutionId(1),
    toolId: null,
    qualifiedName: 'crm__find',
    sourceId: null,
    sourceName: 'crm',
    definitionHash: null,
    caller: { principalId: 'oidc:alice@idp', principalName: 'alice' },
    channel: 'mcp',
    arguments: {},
    status: 'rejected',
    isError: false,
    result: null,
    error,
    attempts: 0,
    startedAt: new Date('2026-01-01T00:00:00Z'),
    durationMs: 1,
    ...changes,
  };
}

/** A `working` task of `files__write` by key_1 over REST, created at 2026-02-01T00:00:00Z, with `overrides`. */
export function aTask(overrides: Partial<ExecutionTask> = {}): ExecutionTask {
  const created = overrides.createdAt ?? new Date('2026-02-01T00:00:00.000Z');
  return {
    id: anExecutionId(++made),
    principalId: 'key_1',
    principalName: 'ci',
    qualifiedName: 'files__write',
    channel: 'rest',
    status: 'working',
    statusMessage: null,
    createdAt: created,
    updatedAt: created,
    ttlMs: null,
    pollIntervalMs: 1000,
    cancelRequested: false,
    upstreamTaskId: null,
    approvalId: null,
    inputRequests: null,
    sourceId: null,
    sourceName: null,
    group: null,
    ...overrides,
  };
}
