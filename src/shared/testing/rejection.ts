import { DomainError } from '../domain-error.js';

/**
 * The DomainError `work` fails with (a promise, or a function that throws or answers one); fails
 * itself when the work succeeds or fails otherwise.
 */
export async function rejection(work: Promise<unknown> | (() => unknown)): Promise<DomainError> {
  const outcome = await Promise.resolve()
    .then(() => (typeof work === 'function' ? work() : work))
    .then(
      (value: unknown) => ({ value }),
      (error: unknown) => ({ error }),
    );
  if ('value' in outcome) throw new Error(`expected a DomainError, got ${JSON.stringify(outcome.value)}`);
  if (!(outcome.error instanceof DomainError)) throw outcome.error;
  return outcome.error;
}
