import fc from 'fast-check';
import { bounded, checkedVerdict, MAX_MESSAGE_CHARS } from './verdict-check.js';

describe('checkedVerdict', () => {
  it('takes the three decisions as the contract states them', () => {
    expect(checkedVerdict({ decision: 'allow' }, 'pre')).toEqual({ decision: 'allow' });
    expect(checkedVerdict({ decision: 'deny', message: 'no', code: 'ARGUMENT_LOCKED', details: [{ path: 'arguments.a', message: 'is locked' }] }, 'pre')).toEqual({
      decision: 'deny',
      message: 'no',
      code: 'ARGUMENT_LOCKED',
      details: [{ path: 'arguments.a', message: 'is locked' }],
    });
    expect(checkedVerdict({ decision: 'modify', arguments: { a: 1 }, changes: { paths: ['arguments.a'] }, warning: 'w' }, 'pre')).toEqual({
      decision: 'modify',
      arguments: { a: 1 },
      changes: { paths: ['arguments.a'] },
      warning: 'w',
    });
    expect(checkedVerdict({ decision: 'modify', result: { content: [] }, isError: true, changes: {} }, 'post')).toEqual({ decision: 'modify', result: { content: [] }, isError: true, changes: {} });
    expect(checkedVerdict({ decision: 'modify', result: { content: [] }, changes: { counts: { email: 2 }, truncated: true } }, 'post')).toEqual({
      decision: 'modify',
      result: { content: [] },
      changes: { counts: { email: 2 }, truncated: true },
    });
  });

  it('refuses answers it cannot use, saying why', () => {
    expect(checkedVerdict(undefined, 'pre')).toEqual({ invalid: 'it answered no verdict' });
    expect(checkedVerdict({ decision: 'deny' }, 'pre')).toEqual({ invalid: 'it denied the call without a message' });
    expect(checkedVerdict({ decision: 'modify', arguments: [1], changes: {} }, 'pre')).toEqual({ invalid: 'it answered arguments that are not an object' });
    expect(checkedVerdict({ decision: 'modify', result: { content: 'text' }, changes: {} }, 'post')).toEqual({ invalid: 'it answered a result without a content list' });
    expect(checkedVerdict({ decision: 'ALLOW' }, 'post')).toEqual({ invalid: 'it answered no known decision' });
    expect(checkedVerdict({ decision: 'modify', result: { content: [] }, isError: 'yes', changes: {} }, 'post')).toEqual({ invalid: 'it answered an isError that is not a boolean' });
  });

  it('bounds whatever an engine passes on: texts, lists, counts and codes (property)', () => {
    const anything = fc.oneof(fc.jsonValue(), fc.string({ unit: 'binary', maxLength: 1500, size: 'max' }), fc.array(fc.string({ unit: 'binary', maxLength: 400, size: 'max' }), { maxLength: 120, size: 'max' }));
    const answer = fc.record(
      {
        decision: fc.constantFrom('allow', 'modify', 'deny', 'other'),
        message: fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 1500, size: 'max' }), anything),
        warning: fc.oneof(fc.string({ unit: 'binary', maxLength: 1500, size: 'max' }), anything),
        code: fc.oneof(fc.string({ maxLength: 80 }), fc.stringMatching(/^[A-Z][A-Z0-9_]{0,70}$/)),
        details: fc.oneof(fc.array(fc.record({ path: fc.string({ unit: 'binary', maxLength: 400, size: 'max' }), message: fc.string({ unit: 'binary', maxLength: 1500, size: 'max' }) }), { maxLength: 120, size: 'max' }), anything),
        changes: fc.oneof(
          fc.record(
            {
              paths: fc.oneof(fc.array(fc.string({ unit: 'binary', maxLength: 400, size: 'max' }), { maxLength: 120, size: 'max' }), anything),
              counts: fc.oneof(fc.dictionary(fc.string({ unit: 'binary', maxLength: 200, size: 'max' }), fc.oneof(fc.integer(), fc.double(), fc.string()), { maxKeys: 150, size: 'max' }), anything),
              truncated: anything,
            },
            { requiredKeys: [] },
          ),
          anything,
        ),
        arguments: anything,
        result: fc.oneof(fc.record({ content: fc.array(fc.jsonValue(), { maxLength: 3 }) }), anything),
      },
      { requiredKeys: ['decision'] },
    );
    fc.assert(
      fc.property(answer, fc.constantFrom('pre' as const, 'post' as const), (given, phase) => {
        const verdict = checkedVerdict(given, phase);
        if ('invalid' in verdict) return;
        if (verdict.decision === 'deny') {
          expect(verdict.message.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
          if (verdict.code !== undefined) expect(verdict.code).toMatch(/^[A-Z][A-Z0-9_]{0,63}$/);
          expect(verdict.details?.length ?? 0).toBeLessThanOrEqual(100);
          for (const detail of verdict.details ?? []) {
            expect(detail.path.length).toBeLessThanOrEqual(300);
            expect(detail.message.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
          }
          return;
        }
        if (verdict.decision === 'hold') return;
        if (verdict.warning !== undefined) expect(verdict.warning.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
        if (verdict.decision !== 'modify') return;
        const { paths, counts, truncated } = verdict.changes;
        expect(paths?.length ?? 0).toBeLessThanOrEqual(100);
        for (const path of paths ?? []) expect(path.length).toBeLessThanOrEqual(300);
        expect(Object.keys(counts ?? {}).length).toBeLessThanOrEqual(50);
        for (const [key, value] of Object.entries(counts ?? {})) {
          expect(key.length).toBeLessThanOrEqual(100);
          expect(Number.isFinite(value)).toBe(true);
        }
        if (truncated !== undefined) expect(typeof truncated).toBe('boolean');
        if (phase === 'pre' && verdict.arguments !== undefined) expect(typeof verdict.arguments === 'object' && !Array.isArray(verdict.arguments)).toBe(true);
        if (phase === 'post' && verdict.result !== undefined) expect(Array.isArray(verdict.result.content)).toBe(true);
      }),
      // Shrinking answers this large takes long; the first counterexample says enough.
      { endOnFailure: true },
    );
  });

  it('cuts a text without splitting a surrogate pair', () => {
    const text = `${'a'.repeat(8)}😀${'b'.repeat(5)}`;
    expect(bounded(text, 10)).toBe(`${'a'.repeat(8)}…`);
    expect(bounded('short', 10)).toBe('short');
  });
});
