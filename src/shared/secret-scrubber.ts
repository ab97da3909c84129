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

/** Slots of the tables keyed by three characters of text: 2^15, hashed. */
const SLOT_BITS = 15;
const SLOTS = 1 << SLOT_BITS;
/** Characters of each form the skip table looks at, at most. */
const WINDOW_CAP = 64;
const blockSlot = (text: string, end: number): number =>
  Math.imul((text.charCodeAt(end - 2) << 16) ^ (text.charCodeAt(end - 1) << 8) ^ text.charCodeAt(end), 0x9e3779b1) >>> (32 - SLOT_BITS);

/** Scrubbers of the secret lists they were built from: a resolved target's list serves many calls. */
const built = new WeakMap<readonly KnownSecret[], SecretScrubber>();

/**
 * Replaces every occurrence of known secret values, and of their encoded forms (percent-encoded,
 * hex, base64 as a whole or inside a longer base64 text: see {@link secretForms}), in text and in
 * JSON-like values by a marker naming the secret. The text is read through a window as long as the
 * shortest form (Wu–Manber): one table look-up on the window's last three characters says how far
 * it may move without passing the start of any form, usually most of its length. Only where a form
 * may start are the forms ending their window with those characters compared, longest first, so a
 * value that contains another is replaced whole. The cost is linear in the text: at most those
 * comparisons at each position, whatever the text.
 */
export class SecretScrubber {
  static readonly none = new SecretScrubber([]);

  /**
   * How far the window (as long as the shortest form, capped) may move when its last three
   * characters are these: no form has them closer to the end of its first window characters.
   */
  private readonly shifts = new Uint8Array(SLOTS);
  /** Bucket number + 1 of the forms whose window ends with these three characters; 0: none. */
  private readonly ends = new Uint16Array(SLOTS);
  /** Per bucket, forms longest first, and the marker standing in for each. */
  private readonly buckets: { forms: string[]; markers: string[] }[] = [];
  private readonly window: number = 0;

  constructor(secrets: Iterable<KnownSecret>, marker: (name: string) => string = secretMarker) {
    const markers = new Map<string, string>();
    for (const { name, value } of secrets) {
      if (typeof value !== 'string' || value.length < MIN_SCRUBBED_LENGTH) continue;
      for (const form of secretForms(value)) {
        if (form.length >= MIN_SCRUBBED_LENGTH && !markers.has(form)) markers.set(form, marker(name));
      }
    }
    const forms = [...markers.keys()].sort((a, b) => b.length - a.length);
    if (forms.length === 0) return;
    this.window = Math.min(forms.at(-1)!.length, WINDOW_CAP);
    this.shifts.fill(this.window - 2);
    for (const form of forms) {
      for (let end = 2; end < this.window; end++) {
        const slot = blockSlot(form, end);
        this.shifts[slot] = Math.min(this.shifts[slot]!, this.window - 1 - end);
      }
      const slot = blockSlot(form, this.window - 1);
      if (this.ends[slot] === 0) this.ends[slot] = this.buckets.push({ forms: [], markers: [] });
      const bucket = this.buckets[this.ends[slot]! - 1]!;
      bucket.forms.push(form);
      bucket.markers.push(markers.get(form)!);
    }
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
    return this.window === 0;
  }

  text(text: string): string {
    const { shifts, ends, buckets, window } = this;
    if (window === 0) return text;
    let out = '';
    let copied = 0;
    for (let at = 0; at + window <= text.length; ) {
      const slot = blockSlot(text, at + window - 1);
      const shift = shifts[slot]!;
      if (shift > 0) {
        at += shift;
        continue;
      }
      const bucket = ends[slot]!;
      if (bucket !== 0) {
        const { forms, markers } = buckets[bucket - 1]!;
        const found = firstStartingAt(forms, text, at);
        if (found >= 0) {
          out += text.slice(copied, at) + markers[found];
          at += forms[found]!.length;
          copied = at;
          continue;
        }
      }
      at += 1;
    }
    return copied === 0 ? text : out + text.slice(copied);
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

function firstStartingAt(forms: readonly string[], text: string, at: number): number {
  for (let index = 0; index < forms.length; index++) if (text.startsWith(forms[index]!, at)) return index;
  return -1;
}

function emptyLike(value: object): Record<string, unknown> | unknown[] {
  return Array.isArray(value) ? new Array<unknown>(value.length) : {};
}
