import fc from 'fast-check';
import { SdkError } from '@modelcontextprotocol/client';
import { checkModernResult, rawAnswerOf } from './direct-tool-call.js';

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

describe('rawAnswerOf', () => {
  it('answers the result as it came, or an error with a numeric code and a text message, whatever the upstream sent', () => {
    expect(rawAnswerOf({ result: { resultType: 'task', taskId: 't' } })).toEqual({ result: { resultType: 'task', taskId: 't' } });
    expect(rawAnswerOf({ error: { code: -32602, message: 'no task', data: { x: 1 } } })).toEqual({ error: { code: -32602, message: 'no task', data: { x: 1 } } });
    expect(rawAnswerOf({ error: { code: 'bad' } })).toEqual({ error: { code: -32603, message: 'unknown error' } });
    expect(rawAnswerOf({ error: { code: 1.5, message: 'x' } })).toEqual({ error: { code: -32603, message: 'x' } });
    fc.assert(
      fc.property(fc.record({ result: fc.anything(), error: fc.anything() }, { requiredKeys: [] }), (answer) => {
        const read = rawAnswerOf(answer);
        if ('result' in read) return read.result === answer.result;
        return Number.isSafeInteger(read.error.code) && typeof read.error.message === 'string';
      }),
    );
  });
});
