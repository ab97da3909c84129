import { LiteralReplacer } from './literal-replacer.js';
import { secretForms } from './secret-forms.js';

/** A secret value Toolplane knows, and the name a scrubbed copy shows in its place. */
export interface KnownSecret {
  name: string;
  value: string;
}

/** Values shorter than this are not scrubbed: they would match ordinary text everywhere. */
export const MIN_SCRUBBED_LENGTH = 4;

/** What stands in for a scrubbed value: names the secret, never shows it. */
export const secretMarker = (name: string): string => `[secret:${name}]`;

/** Scrubbers of the secret lists they were built from: a resolved target's list serves many calls. */
const built = new WeakMap<readonly KnownSecret[], SecretScrubber>();

/**
 * Replaces every occurrence of known secret values, and of their encoded forms (percent-encoded,
 * hex, base64 as a whole or inside a longer base64 text: see {@link secretForms}), in text and in
 * JSON-like values by a marker naming the secret; a value that contains another is replaced whole.
 * The cost is linear in the text ({@link LiteralReplacer}).
 */
export class SecretScrubber {
  static readonly none = new SecretScrubber([]);

  private readonly replacer: LiteralReplacer;

  constructor(secrets: Iterable<KnownSecret>, marker: (name: string) => string = secretMarker) {
    const markers = new Map<string, string>();
    for (const { name, value } of secrets) {
      if (typeof value !== 'string' || value.length < MIN_SCRUBBED_LENGTH) continue;
      for (const form of secretForms(value)) {
        if (form.length >= MIN_SCRUBBED_LENGTH && !markers.has(form)) markers.set(form, marker(name));
      }
    }
    this.replacer = new LiteralReplacer(markers);
  }

  /** The scrubber of a list that no longer changes (a resolved target's), built once for it. */
  static of(secrets: readonly KnownSecret[]): SecretScrubber {
    let scrubber = built.get(secrets);
    if (!scrubber) {
      scrubber = new SecretScrubber(secrets);
      built.set(secrets, scrubber);
    }
    return scrubber;
  }

  get empty(): boolean {
    return this.replacer.empty;
  }

  text(text: string): string {
    return this.replacer.replace(text);
  }

  /**
   * A copy of a JSON-like value with every string (object keys included) scrubbed. Iterative, so
   * depth is no danger; keys such as `__proto__` stay own properties of the copy.
   */
  json<T>(value: T): T {
    if (this.empty) return value;
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
