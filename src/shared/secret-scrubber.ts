/** A secret value Toolplane knows, and the name a scrubbed copy shows in its place. */
export interface KnownSecret {
  name: string;
  value: string;
}

/** Values shorter than this are not scrubbed: they would match ordinary text everywhere. */
export const MIN_SCRUBBED_LENGTH = 4;

/** What stands in for a scrubbed value: names the secret, never shows it. */
export const secretMarker = (name: string): string => `[secret:${name}]`;

/**
 * Replaces every occurrence of known secret values (and their URL-encoded form) in text and in
 * JSON-like values by a marker naming the secret. Matching is one literal alternation, longest
 * value first, so a value that contains another is replaced whole; the cost is linear in the text.
 */
export class SecretScrubber {
  static readonly none = new SecretScrubber([]);

  private readonly pattern: RegExp | undefined;
  private readonly names = new Map<string, string>();

  constructor(secrets: Iterable<KnownSecret>) {
    for (const { name, value } of secrets) {
      if (typeof value !== 'string' || value.length < MIN_SCRUBBED_LENGTH) continue;
      for (const form of new Set([value, encodeURIComponent(value)])) {
        if (!this.names.has(form)) this.names.set(form, name);
      }
    }
    if (this.names.size === 0) return;
    const alternatives = [...this.names.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.pattern = new RegExp(alternatives.join('|'), 'g');
  }

  get empty(): boolean {
    return this.pattern === undefined;
  }

  /** A scrubber that knows the secrets of both. */
  with(secrets: Iterable<KnownSecret>): SecretScrubber {
    return new SecretScrubber([...[...this.names].map(([value, name]) => ({ name, value })), ...secrets]);
  }

  text(text: string): string {
    if (!this.pattern) return text;
    return text.replace(this.pattern, (match) => secretMarker(this.names.get(match)!));
  }

  /**
   * A copy of a JSON-like value with every string (object keys included) scrubbed. Iterative, so
   * depth is no danger; keys such as `__proto__` stay own properties of the copy.
   */
  json<T>(value: T): T {
    if (!this.pattern) return value;
    if (typeof value === 'string') return this.text(value) as T;
    if (value === null || typeof value !== 'object') return value;
    const root = emptyLike(value);
    const stack: [source: object, target: Record<string, unknown> | unknown[]][] = [[value, root]];
    while (stack.length > 0) {
      const [source, target] = stack.pop()!;
      for (const [key, inner] of Object.entries(source)) {
        let copy: unknown = inner;
        if (typeof inner === 'string') copy = this.text(inner);
        else if (inner !== null && typeof inner === 'object') {
          copy = emptyLike(inner);
          stack.push([inner, copy as Record<string, unknown> | unknown[]]);
        }
        if (Array.isArray(target)) target[Number(key)] = copy;
        else Object.defineProperty(target, this.text(key), { value: copy, enumerable: true, writable: true, configurable: true });
      }
    }
    return root as T;
  }
}

function emptyLike(value: object): Record<string, unknown> | unknown[] {
  return Array.isArray(value) ? new Array<unknown>(value.length) : {};
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
