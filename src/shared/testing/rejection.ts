import { DomainError } from '../domain-error.js';

/** The DomainError `work` fails with; fails itself when the work succeeds or fails otherwise. */
export async function rejection(work: Promise<unknown>): Promise<DomainError> {
  const outcome = await work.then(
    (value: unknown) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if ('value' in outcome) throw new Error(`expected a DomainError, got ${JSON.stringify(outcome.value)}`);
  if (!(outcome.error instanceof DomainError)) throw outcome.error;
  return outcome.error;
}
