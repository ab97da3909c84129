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
});
