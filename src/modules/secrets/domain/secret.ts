import type { ProblemList } from '../../../shared/domain-error.js';

export const SECRET_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;

/** A secret's name, shared or a principal's own, as a put checks it. */
export function checkSecretName(name: string, problems: ProblemList): void {
  if (!SECRET_NAME_PATTERN.test(name)) problems.add('name', 'must start with a letter or _ and hold only letters, digits, _ . - (at most 128)');
}
export const MAX_SECRET_BYTES = 64 * 1024;

/**
 * A value to store: text, not empty, at most `maxBytes` in UTF-8, and without NUL, which neither an
 * environment variable nor a header can carry. A problem of `value` already listed is not said again.
 */
export function checkSecretValue(value: unknown, maxBytes: number, problems: ProblemList): value is string {
  if (problems.has('value')) return false;
  if (typeof value !== 'string') problems.add('value', 'must be a string');
  else if (value.length === 0) problems.add('value', 'must not be empty');
  else if (Buffer.byteLength(value) > maxBytes) problems.add('value', `must be at most ${maxBytes} bytes`);
  else if (value.includes('\0')) problems.add('value', 'must not contain NUL');
  else return true;
  return false;
}

export interface SecretMetadata {
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Port: stored secrets. Values go in sealed and come out only to resolve a source's env. */
export abstract class SecretRepository {
  abstract put(name: string, value: string, now: Date): Promise<SecretMetadata & { created: boolean }>;
  abstract delete(name: string): Promise<boolean>;
  abstract reveal(name: string): Promise<string | undefined>;
  abstract existing(names: string[]): Promise<Set<string>>;
  abstract list(after: string | undefined, limit: number): Promise<SecretMetadata[]>;
}
