import { REDACTED, redactArguments } from './argument-redaction.js';

describe('redactArguments', () => {
  const schema = {
    type: 'object',
    properties: {
      query: { type: 'string' },
      pin: { type: 'string', format: 'password' },
      signing: { type: 'string', writeOnly: true },
      nested: { type: 'object', properties: { secretSauce: { type: 'string' }, fine: { type: 'number' } } },
      list: { type: 'array', items: { type: 'object', properties: { code: { type: 'string', writeOnly: true } } } },
    },
  };

  it('hides what the schema or the name marks secret, everywhere, and keeps the rest', () => {
    const args = {
      query: 'hello',
      pin: '1234',
      signing: 'k',
      apiKey: 'sk-1',
      Authorization: 'Bearer x',
      nested: { secretSauce: 'mayo', fine: 3 },
      list: [{ code: 'a' }, { code: 'b' }],
      github_token: 'ghp',
      password: 'p',
    };
    expect(redactArguments(args, schema)).toEqual({
      query: 'hello',
      pin: REDACTED,
      signing: REDACTED,
      apiKey: REDACTED,
      Authorization: REDACTED,
      nested: { secretSauce: REDACTED, fine: 3 },
      list: [{ code: REDACTED }, { code: REDACTED }],
      github_token: REDACTED,
      password: REDACTED,
    });
    expect(args.pin).toBe('1234'); // the original is untouched
  });

  it('works without a schema and on non-objects', () => {
    expect(redactArguments({ token: 't', a: 1 }, undefined)).toEqual({ token: REDACTED, a: 1 });
    expect(redactArguments('text', undefined)).toBe('text');
    expect(redactArguments(null, undefined)).toBeNull();
  });

  it('answers arguments with nothing to redact as they are, and copies only the paths it changed', () => {
    const list = [{ code: 'x', other: { deep: 1 } }];
    const plain = { query: 'q', nested: { fine: 1 }, tags: ['a', 'b'] };
    expect(redactArguments(plain, schema)).toBe(plain);
    const args = { query: 'q', nested: { fine: 1 }, list };
    const redacted = redactArguments(args, schema) as typeof args;
    expect(redacted).not.toBe(args);
    expect(redacted.nested).toBe(args.nested);
    expect(redacted.list[0]).toEqual({ code: REDACTED, other: { deep: 1 } });
    expect(redacted.list[0].other).toBe(list[0].other);
    expect(list[0].code).toBe('x');
  });

  it('keeps a `__proto__` key an own property of the copy, and redacts beside it', () => {
    const args = JSON.parse('{"__proto__": {"polluted": true}, "token": "t"}') as Record<string, unknown>;
    const redacted = redactArguments(args, undefined) as Record<string, unknown>;
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(Object.keys(redacted)).toEqual(['__proto__', 'token']);
    expect(JSON.stringify(redacted)).toBe('{"__proto__":{"polluted":true},"token":"[redacted]"}');
  });
});
