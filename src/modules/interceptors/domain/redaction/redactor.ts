import type { RedactionKind, RedactSettings } from '../interceptor.js';
import { CardDetector } from './card-detector.js';
import type { Detector } from './detector.js';
import { EmailDetector } from './email-detector.js';
import { IbanDetector } from './iban-detector.js';
import { PatternDetector } from './pattern-detector.js';
import { PhoneDetector } from './phone-detector.js';
import { SecretDetector } from './secret-detector.js';

/**
 * The built-in detectors, in the order they run: the more a shape says of itself, the earlier (an
 * address's digits are the address's, an IBAN's are not a phone number's).
 */
const BUILT_IN: readonly (Detector & { kind: RedactionKind })[] = [new EmailDetector(), new SecretDetector(), new IbanDetector(), new CardDetector(), new PhoneDetector()];

/** Masks what its detectors find in a text as `[kind]`, one detector after another, and counts it. */
export class Redactor {
  constructor(private readonly detectors: readonly Detector[]) {}

  /** Custom patterns first (each masked as `[name]`), then the built-in detectors chosen (all when `detect` is absent). */
  static of(settings: RedactSettings): Redactor {
    const custom = (settings.patterns ?? []).map(({ name, pattern }) => new PatternDetector(name, pattern));
    const chosen = settings.detect === undefined ? BUILT_IN : BUILT_IN.filter((detector) => settings.detect!.includes(detector.kind));
    return new Redactor([...custom, ...chosen]);
  }

  /** The text with every value found masked (the same string when none was), the counts added to `counts`. */
  redact(text: string, counts: Record<string, number>): string {
    let current = text;
    for (const detector of this.detectors) {
      const spans = detector.find(current);
      if (spans.length === 0) continue;
      current = masked(current, spans, `[${detector.kind}]`);
      count(counts, detector.kind, spans.length / 2);
    }
    return current;
  }
}

function masked(text: string, spans: readonly number[], marker: string): string {
  let out = '';
  let kept = 0;
  for (let index = 0; index < spans.length; index += 2) {
    out += text.slice(kept, spans[index]) + marker;
    kept = spans[index + 1]!;
  }
  return out + text.slice(kept);
}

/** Adds to a count; a pattern named `__proto__` is counted as an own property like any other. */
function count(counts: Record<string, number>, kind: string, found: number): void {
  const value = (Object.hasOwn(counts, kind) ? counts[kind]! : 0) + found;
  Object.defineProperty(counts, kind, { value, enumerable: true, writable: true, configurable: true });
}
