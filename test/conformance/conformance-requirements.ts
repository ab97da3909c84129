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
