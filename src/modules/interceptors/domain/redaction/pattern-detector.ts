import type { RE2JS } from 're2js';
import { compileLinear } from '../../../../shared/json-schema/linear-regexp.js';
import type { Detector } from './detector.js';

/** An administrator's pattern (ECMAScript syntax, matched by RE2: linear time); empty matches are skipped. */
export class PatternDetector implements Detector {
  private readonly pattern: RE2JS;

  constructor(
    readonly kind: string,
    pattern: string,
  ) {
    this.pattern = compileLinear(pattern);
  }

  find(text: string): number[] {
    const spans: number[] = [];
    const matcher = this.pattern.matcher(text);
    while (matcher.find()) {
      const start = matcher.start();
      const end = matcher.end();
      if (end > start) spans.push(start, end);
    }
    return spans;
  }
}
