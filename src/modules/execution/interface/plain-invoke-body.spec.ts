import 'reflect-metadata';
import fc from 'fast-check';
import { validateDto } from '../../../shared/http/validate-dto.js';
import { InvokeToolDto } from './invoke.dto.js';
import { plainInvokeBody } from './plain-invoke-body.js';

const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.string({ maxLength: 6 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 3 }),
})).value;
/** Invoke bodies, well-formed or not: every member with values of every type, near its bounds, and unknown members. */
const body = fc
  .record(
    {
      arguments: json,
      timeoutMs: fc.oneof(json, fc.integer({ min: -2, max: 3 }), fc.constantFrom(3_600_000, 3_600_001, 1.5, 0)),
      inputResponses: json,
      requestState: fc.oneof(json, fc.string({ maxLength: 8 })),
      extra: json,
      constructor: json,
    },
    { requiredKeys: [] },
  )
  .map((record) => JSON.parse(JSON.stringify(record)) as unknown);

describe('plainInvokeBody', () => {
  it('accepts only bodies class-validator finds no problem in, taking them as they are', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(body, json), async (candidate) => {
        const plain = plainInvokeBody(candidate);
        if (plain === undefined) return;
        expect(plain).toBe(candidate);
        const { value, problems } = await validateDto(InvokeToolDto, candidate);
        expect(problems).toEqual([]);
        expect({ ...value }).toEqual(candidate);
      }),
      { numRuns: 3_000 },
    );
  });

  it('takes the bodies agents send', () => {
    for (const sent of [{}, { arguments: { message: 'hi' } }, { arguments: { a: [1] }, timeoutMs: 5_000 }, { arguments: {}, inputResponses: { q: { action: 'accept' } }, requestState: 'opaque' }, { timeoutMs: null }]) {
      expect(plainInvokeBody(sent)).toBe(sent);
    }
  });

  it('leaves everything else to class-validator, which names the problems', async () => {
    for (const sent of [{ timeoutMs: 0 }, { timeoutMs: 1.5 }, { timeoutMs: '5' }, { inputResponses: [] }, { requestState: 7 }, { requestState: 'x'.repeat(1_000_001) }, { extra: 1 }, [], 'text', null]) {
      expect(plainInvokeBody(sent)).toBeUndefined();
      expect((await validateDto(InvokeToolDto, sent)).problems.length).toBeGreaterThan(0);
    }
  });
});
