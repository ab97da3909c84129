import fc from 'fast-check';
import { SdkError } from '@modelcontextprotocol/client';
import { checkModernResult } from './direct-tool-call.js';

/** Any JSON object an upstream may answer, `resultType` left out. */
const untyped = fc.dictionary(fc.string().filter((key) => key !== 'resultType'), fc.jsonValue(), { maxKeys: 6 });

describe('checkModernResult', () => {
  it('reads a result without resultType as complete, unchanged, and tells of it', () => {
    fc.assert(
      fc.property(untyped, (result) => {
        const told: number[] = [];
        expect(checkModernResult(result, () => told.push(1))).toBe(result);
        expect(told).toHaveLength(1);
      }),
    );
  });

  it('passes complete results and input_required results that ask for something, and tells of nothing', () => {
    fc.assert(
      fc.property(untyped, fc.boolean(), (fields, complete) => {
        const result = complete ? { ...fields, resultType: 'complete' } : { ...fields, resultType: 'input_required', requestState: 'state' };
        const told: number[] = [];
        expect(checkModernResult(result, () => told.push(1))).toBe(result);
        expect(told).toHaveLength(0);
      }),
    );
  });

  it('refuses what is not a tool result: another resultType, an empty input_required, not an object', () => {
    const other = fc.jsonValue().filter((type) => type !== undefined && type !== 'complete' && type !== 'input_required');
    fc.assert(fc.property(untyped, other, (fields, resultType) => expect(() => checkModernResult({ ...fields, resultType })).toThrow(SdkError)));
    expect(() => checkModernResult({ resultType: 'input_required' })).toThrow(/neither inputRequests nor requestState/);
    for (const notAnObject of [null, 'text', 3, [], true]) expect(() => checkModernResult(notAnObject)).toThrow(/not an object/);
  });
});
