import fc from 'fast-check';
import { parseJSONRPCMessage } from '@modelcontextprotocol/client';
import { toJsonRpcMessage } from './jsonrpc-message.js';

type Outcome = { ok: true; value: unknown } | { ok: false };
const outcome = (parse: () => unknown): Outcome => {
  try {
    return { ok: true, value: parse() };
  } catch {
    return { ok: false };
  }
};

const text = fc.string({ unit: 'binary', maxLength: 8 });
const key = fc.oneof(text, fc.constantFrom('_meta', '__proto__', 'jsonrpc', 'id', 'result', 'error', 'method', 'params', 'content'));
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
})).value;
/** Ids of every kind the SDK takes or refuses. */
const id = fc.oneof(text, fc.integer(), fc.maxSafeInteger(), fc.constant(2 ** 53), fc.double(), fc.constant(null), fc.constant(undefined), fc.boolean());
/** Values near a result response: the right members with wrong types, extra members, `_meta` in the result. */
const nearResponse = fc
  .record(
    {
      jsonrpc: fc.constantFrom('2.0', '2.0 ', '1.0', 2),
      id,
      result: fc.oneof(json, fc.dictionary(key, json, { maxKeys: 3 }), fc.record({ _meta: json, content: json }, { requiredKeys: [] })),
      error: json,
      method: fc.oneof(text, fc.constant('notifications/progress')),
      extra: json,
    },
    { requiredKeys: [] },
  )
  .map((record) => JSON.parse(JSON.stringify(record)) as unknown);
/** Result responses with every kind of id and result. */
const response = fc.record({ jsonrpc: fc.constant('2.0'), id, result: fc.oneof(json, fc.dictionary(key, json, { maxKeys: 3 })) });

describe('toJsonRpcMessage', () => {
  it('accepts and refuses exactly what the SDK does, with an equal message', () => {
    fc.assert(
      fc.property(fc.oneof(response, nearResponse, json), (value) => {
        const ours = outcome(() => toJsonRpcMessage(value));
        const sdk = outcome(() => parseJSONRPCMessage(value));
        expect(ours.ok).toBe(sdk.ok);
        if (ours.ok && sdk.ok) expect(ours.value).toStrictEqual(sdk.value);
      }),
      { numRuns: 5_000 },
    );
  });

  it('takes a plain result response as it is, without the SDK', () => {
    const response = JSON.parse('{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Echo: hello"}]}}') as unknown;
    expect(toJsonRpcMessage(response)).toBe(response);
    const named = { jsonrpc: '2.0', id: 'a-1', result: {} };
    expect(toJsonRpcMessage(named)).toBe(named);
  });

  it('leaves results with _meta, errors, notifications and odd ids to the SDK', () => {
    const withMeta = { jsonrpc: '2.0', id: 1, result: { _meta: { 'io.modelcontextprotocol/serverInfo': { name: 7 } }, content: [] } };
    const checked = toJsonRpcMessage(withMeta);
    expect(checked).not.toBe(withMeta);
    // The SDK drops a serverInfo it cannot read rather than refusing the result.
    expect(checked).toStrictEqual(parseJSONRPCMessage(withMeta));
    expect(toJsonRpcMessage({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'boom' } })).toMatchObject({ error: { code: -32603 } });
    expect(toJsonRpcMessage({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })).toMatchObject({ method: 'notifications/progress' });
    expect(() => toJsonRpcMessage({ jsonrpc: '2.0', id: 1.5, result: {} })).toThrow();
    expect(() => toJsonRpcMessage({ jsonrpc: '2.0', id: 1, result: [] })).toThrow();
    expect(() => toJsonRpcMessage({ jsonrpc: '2.0', id: 1, result: {}, extra: true })).toThrow();
  });
});
