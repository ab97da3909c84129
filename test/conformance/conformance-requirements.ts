import type { ConformanceEra } from './conformance-suite.js';

/** The scenarios Toolplane's source endpoint must pass, per era. */
export const REQUIRED_SCENARIOS: Record<ConformanceEra, readonly string[]> = {
  '2025-11-25': [
    'server-initialize',
    'ping',
    'logging-set-level',
    'tools-list',
    'tools-call-simple-text',
    'tools-call-image',
    'tools-call-audio',
    'tools-call-embedded-resource',
    'tools-call-mixed-content',
    'tools-call-with-logging',
    'tools-call-error',
    'tools-call-with-progress',
    'tools-call-sampling',
    'tools-call-elicitation',
  ],
  '2026-07-28': [
    'server-stateless',
    'caching',
    'tools-list',
    'tools-call-simple-text',
    'tools-call-image',
    'tools-call-audio',
    'tools-call-embedded-resource',
    'tools-call-mixed-content',
    'tools-call-error',
    'tools-call-with-progress',
    'input-required-result-basic-elicitation',
    'input-required-result-basic-sampling',
    'input-required-result-basic-list-roots',
    'input-required-result-request-state',
    'input-required-result-multiple-input-requests',
    'input-required-result-multi-round',
    'input-required-result-missing-input-response',
    'input-required-result-non-tool-request',
    'input-required-result-result-type',
    'input-required-result-unsupported-methods',
    'input-required-result-tampered-state',
    'input-required-result-capability-check',
    'input-required-result-ignore-extra-params',
    'input-required-result-validate-input',
  ],
};

/**
 * Required scenarios Toolplane does not pass yet, with the reason. They still run; the spec fails
 * when one of them starts passing, so that this list only ever names real gaps.
 */
export const KNOWN_GAPS: Record<ConformanceEra, Readonly<Record<string, string>>> = {
  '2025-11-25': {
  },
  '2026-07-28': {
  },
};

/**
 * The tasks extension's scenarios (`io.modelcontextprotocol/tasks`, 2026-07-28 release): listed as
 * `[extension]`, not part of what the revision requires, run one by one (`--scenario`) against
 * `/mcp/sources/conformance-tasks` (test/fixtures/conformance-task-server.mjs, a 2025-11-25 server
 * whose tools declare `execution.taskSupport`) — tasks-mrtr-composition against
 * `/mcp/sources/conformance-modern-tasks` (test/fixtures/modern-task-server.mjs, a 2026-07-28 server
 * that asks for input in rounds before it makes a task). Every `tasks-*` scenario the release lists
 * is in exactly one of the three lists below; the spec checks that too.
 */
export const TASK_SCENARIOS_PASSING: readonly string[] = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-request-headers',
  'tasks-mrtr-input',
  'tasks-dispatch-and-envelope',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];

/** Why a task scenario fails, and exactly which of its checks do. */
export interface TaskGap {
  failingChecks: readonly string[];
  reason: string;
}

/**
 * Task scenarios Toolplane fails, with the checks that fail and why. The spec fails when a
 * scenario's failing checks change, so this list only ever names real gaps, exactly.
 */
export const TASK_GAPS: Readonly<Record<string, TaskGap>> = {};

/** Task scenarios that test nothing of a server in this release (every check SKIPPED), with the reason. */
export const TASK_NOT_APPLICABLE: Readonly<Record<string, string>> = {
  'tasks-status-notifications':
    'the release skips it: its harness does not listen on subscriptions/listen yet, where SEP-2663 sends notifications/tasks',
};
