import type { ExecutionError, ExecutionResult, ExecutionStatus } from '../../../executions/domain/execution.js';
import type { ChainHold } from '../../../interceptors/application/interceptor-chain.js';

/** How a call ended, as its record keeps it. */
export interface Outcome {
  status: ExecutionStatus;
  isError: boolean;
  result: ExecutionResult | null;
  error: ExecutionError | null;
}

/** Why a call ended without a tool result: its status and its stable error code. */
export class Refusal implements Outcome {
  readonly isError = false;
  readonly result = null;

  constructor(
    readonly status: ExecutionStatus,
    readonly error: ExecutionError,
  ) {}
}

/** A refusal; `extra` adds what the answer's headers need (retryAfterMs, rateLimit, upstream). */
export function refuse(
  status: ExecutionStatus,
  code: string,
  message: string,
  retryable = false,
  details?: ExecutionError['details'],
  extra?: Pick<ExecutionError, 'retryAfterMs' | 'rateLimit' | 'upstream'>,
): Refusal {
  return new Refusal(status, { code, message, retryable, ...(details ? { details } : {}), ...extra });
}

/** A call held by an approval interceptor until a person decides: no outcome yet, nothing was sent. */
export class Hold {
  constructor(readonly hold: ChainHold) {}
}
