import { randomInt } from 'node:crypto';

/** Slots of the tables keyed by three characters of text: 2^15, hashed. */
const SLOT_BITS = 15;
const SLOTS = 1 << SLOT_BITS;
/** Characters of each literal the skip table looks at, at most. */
const WINDOW_CAP = 64;
/** A prime below 2^26: a hash times the base (both below it) stays exact in a double. */
const MODULUS = 67_108_859;

/** `value` modulo MODULUS, for 0 <= value < 2^53, without the slow floating-point `%`. */
function reduced(value: number): number {
  const rest = value - Math.floor(value / MODULUS) * MODULUS;
  return rest < 0 ? rest + MODULUS : rest >= MODULUS ? rest - MODULUS : rest;
}

const blockSlot = (text: string, end: number): number =>
  Math.imul((text.charCodeAt(end - 2) << 16) ^ (text.charCodeAt(end - 1) << 8) ^ text.charCodeAt(end), 0x9e3779b1) >>> (32 - SLOT_BITS);

interface Bucket {
  literals: string[];
  hashes: number[];
  replacements: string[];
}

/**
 * Replaces every occurrence of a set of literals (each at least 3 characters long) in text: the
 * leftmost first, the longest where several start at one position, as an alternation of the
 * literals, longest first, would.
 *
 * The text is read through a window as long as the shortest literal (Wu–Manber): one table look-up
 * on the window's last three characters says how far it may move without passing the start of any
 * literal, usually most of its length. Where a literal may start, the literals ending their window
 * with those characters are compared by a rolling hash of the text (Karp–Rabin, with a base drawn
 * for each replacer, so no text can be written to collide), and only on an equal hash character by
 * character. Each position costs one look-up and at most one hash comparison per literal of its
 * bucket, and each character is hashed at most once: linear in the text, however the text or the
 * literals repeat themselves.
 */
export class LiteralReplacer {
  private readonly window: number = 0;
  /**
   * How far the window may move when its last three characters are these: no literal has them
   * closer to the end of its first `window` characters.
   */
  private readonly shifts = new Uint8Array(0);
  /** Bucket number + 1 of the literals whose window ends with these three characters; 0: none. */
  private readonly ends = new Uint16Array(0);
  /** Per bucket, literals longest first, their hashes and what replaces each. */
  private readonly buckets: Bucket[] = [];
  private readonly base: number = 0;
  /** base^k modulo MODULUS, for k up to the longest literal's length. */
  private readonly powers = new Float64Array(0);
  /** Hashes of text prefixes by position modulo its length: a ring longer than any literal. */
  private readonly prefixes = new Float64Array(0);

  /** `replacements`: each literal and what stands in for it. */
  constructor(replacements: ReadonlyMap<string, string>) {
    const literals = [...replacements.keys()].filter((literal) => literal.length >= 3).sort((a, b) => b.length - a.length);
    if (literals.length === 0) return;
    this.window = Math.min(literals.at(-1)!.length, WINDOW_CAP);
    this.shifts = new Uint8Array(SLOTS).fill(this.window - 2);
    this.ends = new Uint16Array(SLOTS);
    this.base = randomInt(256, MODULUS - 1);
    const longest = literals[0]!.length;
    this.powers = new Float64Array(longest + 1);
    this.powers[0] = 1;
    for (let k = 1; k <= longest; k++) this.powers[k] = reduced(this.powers[k - 1]! * this.base);
    this.prefixes = new Float64Array(2 ** Math.ceil(Math.log2(longest + 1)));
    for (const literal of literals) {
      for (let end = 2; end < this.window; end++) {
        const slot = blockSlot(literal, end);
        this.shifts[slot] = Math.min(this.shifts[slot]!, this.window - 1 - end);
      }
      const slot = blockSlot(literal, this.window - 1);
      if (this.ends[slot] === 0) this.ends[slot] = this.buckets.push({ literals: [], hashes: [], replacements: [] });
      const bucket = this.buckets[this.ends[slot]! - 1]!;
      bucket.literals.push(literal);
      bucket.hashes.push(this.hashOf(literal));
      bucket.replacements.push(replacements.get(literal)!);
    }
  }

  get empty(): boolean {
    return this.window === 0;
  }

  replace(text: string): string {
    const { window, shifts, ends, buckets, base, powers, prefixes } = this;
    if (window === 0) return text;
    const ring = prefixes.length - 1;
    // Hashes of the text from where they were last started are known up to this position.
    let hashedTo = -1;
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
        const { literals, hashes, replacements } = buckets[bucket - 1]!;
        let found = -1;
        for (let index = 0; index < literals.length && found < 0; index++) {
          const length = literals[index]!.length;
          if (at + length > text.length) continue;
          if (hashedTo < at) {
            hashedTo = at;
            prefixes[at & ring] = 0;
          }
          for (; hashedTo < at + length; hashedTo++) prefixes[(hashedTo + 1) & ring] = reduced(prefixes[hashedTo & ring]! * base + text.charCodeAt(hashedTo));
          let hash = prefixes[(at + length) & ring]! - reduced(prefixes[at & ring]! * powers[length]!);
          if (hash < 0) hash += MODULUS;
          if (hash === hashes[index] && text.startsWith(literals[index]!, at)) found = index;
        }
        if (found >= 0) {
          out += text.slice(copied, at) + replacements[found];
          at += literals[found]!.length;
          copied = at;
          continue;
        }
      }
      at += 1;
    }
    return copied === 0 ? text : out + text.slice(copied);
  }

  private hashOf(literal: string): number {
    let hash = 0;
    for (let index = 0; index < literal.length; index++) hash = reduced(hash * this.base + literal.charCodeAt(index));
    return hash;
  }
}
