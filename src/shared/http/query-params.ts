import { ValidationFailed, type ProblemDetail } from '../domain-error.js';

/**
 * Query-string parsing with every problem reported together; unknown parameters are refused
 * so a misspelt filter never silently widens a listing.
 */
export class QueryParams {
  private readonly problems: ProblemDetail[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly raw: Record<string, unknown>) {}

  /** The query of a listing that takes no filter: its page, any other parameter refused. */
  static pageOnly(raw: Record<string, unknown>, defaultLimit: number, maxLimit: number): { cursor: string | undefined; limit: number } {
    const params = new QueryParams(raw);
    const page = params.page(defaultLimit, maxLimit);
    params.done();
    return page;
  }

  string(name: string, options: { max?: number; pattern?: RegExp; oneOf?: readonly string[] } = {}): string | undefined {
    this.seen.add(name);
    const value = this.raw[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      this.problems.push({ path: name, message: 'must be given once' });
      return undefined;
    }
    if (value.length > (options.max ?? 200)) this.problems.push({ path: name, message: `is longer than ${options.max ?? 200} characters` });
    else if (options.oneOf && !options.oneOf.includes(value)) this.problems.push({ path: name, message: `must be one of ${options.oneOf.join(', ')}` });
    else if (options.pattern && !options.pattern.test(value)) this.problems.push({ path: name, message: 'is not well-formed' });
    else return value;
    return undefined;
  }

  boolean(name: string): boolean | undefined {
    const value = this.string(name, { oneOf: ['true', 'false'] });
    return value === undefined ? undefined : value === 'true';
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const value = this.string(name, { max: 12 });
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) {
      this.problems.push({ path: name, message: `must be an integer between ${min} and ${max}` });
      return fallback;
    }
    return n;
  }

  date(name: string): Date | undefined {
    const value = this.string(name, { max: 40 });
    if (value === undefined) return undefined;
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) {
      this.problems.push({ path: name, message: 'must be an ISO 8601 date-time' });
      return undefined;
    }
    return date;
  }

  /** A listing's `cursor` and `limit` (1 to `maxLimit`, `defaultLimit` when absent). */
  page(defaultLimit: number, maxLimit: number): { cursor: string | undefined; limit: number } {
    return { cursor: this.string('cursor', { max: 512 }), limit: this.int('limit', defaultLimit, 1, maxLimit) };
  }

  /** Fails with every problem, unknown parameters included. */
  done(): void {
    for (const name of Object.keys(this.raw)) {
      if (!this.seen.has(name)) this.problems.push({ path: name, message: 'is not a known query parameter' });
    }
    if (this.problems.length > 0) throw new ValidationFailed(this.problems, 'The query parameters are invalid.');
  }
}
