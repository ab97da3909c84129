import type { FindingSeverity } from './definition-finding.js';

/**
 * A pattern of a rule over a text folded for matching (lowercase, look-alike letters folded:
 * confusables.ts), and what a match means.
 *
 * Every pattern here is linear in the text on a backtracking engine: literal words and
 * alternations of them, joined by whitespace runs (`\s+`, which the next literal cannot start) or
 * by gaps bounded to at most 160 characters (`[^.]{0,120}?`), with no quantifier nested inside
 * another unbounded one. A start position thus costs at most a constant number of steps, whatever
 * the text. (re2js guarantees linear time for any pattern but costs ~100 µs per pattern over a
 * 600-character description, about a hundred times V8's engine on these.)
 */
export interface TextPattern {
  pattern: RegExp;
  severity: FindingSeverity;
  /** What it found, completing "The {path} …". */
  says: string;
}

/** Where a pattern matched. */
export interface PatternMatch {
  start: number;
  end: number;
  severity: FindingSeverity;
  says: string;
}

/** The first match of the most severe pattern that matches, or undefined. */
export function strongestMatch(patterns: readonly TextPattern[], text: string): PatternMatch | undefined {
  let found: PatternMatch | undefined;
  for (const { pattern, severity, says } of patterns) {
    if (found !== undefined && (found.severity === 'high' || severity !== 'high')) continue;
    const match = pattern.exec(text);
    if (match !== null) found = { start: match.index, end: match.index + match[0].length, severity, says };
  }
  return found;
}
