/** One problem of a request: where (a JSON path, or `file:path` for manifests) and what. */
export interface ProblemDetail {
  path: string;
  message: string;
}

/** How an error maps onto the outside world; the HTTP layer turns kinds into statuses. */
export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'rate_limited'
  | 'upstream'
  | 'unavailable'
  | 'timeout'
  | 'internal';

/** An error with a stable code, safe to show to the caller as-is. */
export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly details: ProblemDetail[] = [],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export class ValidationFailed extends DomainError {
  constructor(details: ProblemDetail[], message = 'The request is invalid.', code = 'VALIDATION_FAILED') {
    super('invalid', code, message, details);
  }
}

export class NotFound extends DomainError {
  constructor(code: string, message: string) {
    super('not_found', code, message);
  }
}

export class Conflict extends DomainError {
  constructor(code: string, message: string, details: ProblemDetail[] = []) {
    super('conflict', code, message, details);
  }
}

/** Collects every problem of a request before failing, so the caller sees them all at once. */
export class ProblemList {
  private readonly items: ProblemDetail[] = [];

  add(path: string, message: string): void {
    this.items.push({ path, message });
  }

  addAll(problems: readonly ProblemDetail[]): void {
    this.items.push(...problems);
  }

  has(pathPrefix: string): boolean {
    return this.items.some((p) => p.path === pathPrefix || p.path.startsWith(pathPrefix + '.') || p.path.startsWith(pathPrefix + '['));
  }

  get all(): readonly ProblemDetail[] {
    return this.items;
  }

  get isEmpty(): boolean {
    return this.items.length === 0;
  }

  throwIfAny(message?: string): void {
    if (!this.isEmpty) throw new ValidationFailed([...this.items], message);
  }
}
