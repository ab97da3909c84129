import { ProtocolError, ProtocolErrorCode, type CallToolResult, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { CallerSignal } from '../../../shared/caller-signal.js';

/** How the SDK's 2025-era serving continues an `input_required` that asks for nothing: rounds, and the pause between them. */
export const LEGACY_INPUT_ROUNDS = 8;
export const LEGACY_STATE_ONLY_PACING_MS = 250;

/**
 * What the SDK's 2025-era serving makes of an `input_required` result on a connection without a
 * session, which cannot carry server-to-client requests: an error result when the upstream asks
 * for input, and the call re-run with the upstream's state when it asks for none (at most eight
 * rounds, a quarter second apart). A caller gone during a pause is answered nothing.
 */
export async function settleLegacyInputRequired(
  first: CallToolResult | InputRequiredResult,
  signal: CallerSignal,
  rerun: (requestState: string) => Promise<CallToolResult | InputRequiredResult>,
  pacingMs = LEGACY_STATE_ONLY_PACING_MS,
): Promise<CallToolResult> {
  let result = first;
  for (let round = 1; isInputRequired(result); round++) {
    if (round > LEGACY_INPUT_ROUNDS) return failure(`Multi-round-trip request 'tools/call' still required input after ${LEGACY_INPUT_ROUNDS} rounds (inputRequired.maxRounds)`);
    const [key, request] = Object.entries(result.inputRequests ?? {})[0] ?? [];
    if (key !== undefined) {
      const method = typeof request === 'object' && request !== null && typeof (request as { method?: unknown }).method === 'string' ? (request as { method: string }).method : 'an input request';
      return failure(
        `Cannot request input '${key}' (${method}): the client on this 2025-era connection did not declare the required capability (no client capabilities are available on this connection — per-request legacy serving cannot receive server-to-client requests)`,
      );
    }
    if (result.requestState === undefined) {
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'The upstream answered input_required with neither inputRequests nor requestState.');
    }
    if (!(await pause(pacingMs, signal))) return failure('The request was cancelled.');
    result = await rerun(result.requestState);
  }
  return result;
}

function isInputRequired(result: CallToolResult | InputRequiredResult): result is InputRequiredResult {
  return (result as InputRequiredResult).resultType === 'input_required';
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** Waits `ms`; false when `signal` aborted first. */
function pause(ms: number, signal: CallerSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
