import fc from 'fast-check';
import { isSpecType } from '@modelcontextprotocol/server';
import { RememberedCheck, recognizeStatelessToolCall } from './stateless-tool-call.js';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'agent', version: '2.0.0' },
};
const ACCEPT = 'application/json, text/event-stream';

const modernBody = (params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 3,
  method: 'tools/call',
  params: { name: 'ev__echo', arguments: { message: 'hi' }, _meta: { ...ENVELOPE, ...meta }, ...params },
});
const modernHeaders = { accept: ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'ev__echo' };
const legacyBody = (params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'ev__echo', arguments: { message: 'hi' }, ...params } });
const legacyHeaders = { accept: ACCEPT, 'mcp-protocol-version': '2025-11-25' };

function recognize(body: unknown, headers: Record<string, string>) {
  return recognizeStatelessToolCall(body, (name) => headers[name], Object.keys(headers));
}

describe('recognizeStatelessToolCall', () => {
  it('takes a 2026-07-28 call with everything its envelope says', () => {
    expect(recognize(modernBody({}, { progressToken: 'p1', 'io.modelcontextprotocol/logLevel': 'warning', traceparent: '00-1-2-01' }), modernHeaders)).toEqual({
      era: 'modern',
      id: 3,
      name: 'ev__echo',
      arguments: { message: 'hi' },
      progressToken: 'p1',
      logLevel: 'warning',
      protocolVersion: '2026-07-28',
      clientCapabilities: { elicitation: { form: {} } },
      clientInfo: { name: 'agent', version: '2.0.0' },
      executionMeta: false,
    });
    expect(recognize(modernBody({}, { 'dev.toolplane/execution': true }), modernHeaders)).toMatchObject({ era: 'modern', executionMeta: true });
    // Only `true` asks for it.
    for (const flag of ['true', 1, {}]) expect(recognize(modernBody({}, { 'dev.toolplane/execution': flag }), modernHeaders)).toMatchObject({ executionMeta: false });
  });

  it('takes a 2025-era call, which hears every log level and declares no capabilities', () => {
    expect(recognize(legacyBody({ _meta: { progressToken: 7 } }), legacyHeaders)).toEqual({
      era: 'legacy',
      id: 'a',
      name: 'ev__echo',
      arguments: { message: 'hi' },
      progressToken: 7,
      logLevel: 'debug',
      protocolVersion: '2025-11-25',
      clientCapabilities: {},
      executionMeta: false,
    });
    expect(recognize(legacyBody({ arguments: undefined }), legacyHeaders)).toMatchObject({ era: 'legacy', name: 'ev__echo' });
  });

  // Each of these goes to the SDK, which answers it (often with the error the specification requires).
  it.each<[string, unknown, Record<string, string>]>([
    ['another method', { ...modernBody(), method: 'tools/list' }, modernHeaders],
    ['a batch', [modernBody()], modernHeaders],
    ['a notification (no id)', { ...legacyBody(), id: undefined }, legacyHeaders],
    ['a null id', { ...legacyBody(), id: null }, legacyHeaders],
    ['a fractional id', { ...legacyBody(), id: 1.5 }, legacyHeaders],
    ['a wrong jsonrpc version', { ...legacyBody(), jsonrpc: '1.0' }, legacyHeaders],
    ['a numeric name', legacyBody({ name: 42 }), legacyHeaders],
    ['an empty name', legacyBody({ name: '' }), legacyHeaders],
    ['array arguments', legacyBody({ arguments: [1] }), legacyHeaders],
    ['a continuation (requestState)', modernBody({ requestState: 's' }), modernHeaders],
    ['a continuation (inputResponses)', modernBody({ inputResponses: {} }), modernHeaders],
    ['a task-augmented call', legacyBody({ task: { ttl: 1 } }), legacyHeaders],
    ['a non-object _meta', legacyBody({ _meta: 'x' }), legacyHeaders],
    ['an object progress token', legacyBody({ _meta: { progressToken: {} } }), legacyHeaders],
    ['no Accept header', legacyBody(), { 'mcp-protocol-version': '2025-11-25' }],
    ['an Accept header without SSE', legacyBody(), { ...legacyHeaders, accept: 'application/json' }],
    ['an Accept header with weights', legacyBody(), { ...legacyHeaders, accept: 'application/json;q=1, text/event-stream;q=0' }],
    ['a session', legacyBody(), { ...legacyHeaders, 'mcp-session-id': 's-1' }],
    ['an Mcp-Param header', modernBody(), { ...modernHeaders, 'mcp-param-region': 'eu' }],
    ['a 2025-era call without a version header', legacyBody(), { accept: ACCEPT }],
    ['a 2025-era call with an unsupported version', legacyBody(), { ...legacyHeaders, 'mcp-protocol-version': '2024-01-01' }],
    ['a 2025-era call with Mcp-Method', legacyBody(), { ...legacyHeaders, 'mcp-method': 'tools/call' }],
    ['a 2026-07-28 header without the envelope', legacyBody(), modernHeaders],
    ['an envelope without clientCapabilities', modernBody({}, { 'io.modelcontextprotocol/clientCapabilities': undefined }), modernHeaders],
    ['malformed clientCapabilities', modernBody({}, { 'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: 'yes' } } }), modernHeaders],
    ['malformed clientInfo', modernBody({}, { 'io.modelcontextprotocol/clientInfo': { name: 1 } }), modernHeaders],
    ['an unknown log level', modernBody({}, { 'io.modelcontextprotocol/logLevel': 'loud' }), modernHeaders],
    ['an unknown reserved envelope key', modernBody({}, { 'io.modelcontextprotocol/other': 1 }), modernHeaders],
    ['an unsupported envelope revision', modernBody({}, { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }), modernHeaders],
    ['a version header disagreeing with the envelope', modernBody(), { ...modernHeaders, 'mcp-protocol-version': '2025-11-25' }],
    ['no Mcp-Method header', modernBody(), { ...modernHeaders, 'mcp-method': undefined as unknown as string }],
    ['an Mcp-Method header disagreeing with the body', modernBody(), { ...modernHeaders, 'mcp-method': 'tools/list' }],
    ['an Mcp-Name header disagreeing with the body', modernBody(), { ...modernHeaders, 'mcp-name': 'other' }],
    ['a name its header must encode', modernBody({ name: 'café' }), { ...modernHeaders, 'mcp-name': 'café' }],
  ])('leaves %s to the SDK', (_case, body, headers) => {
    const present = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined));
    expect(recognize(body, present)).toBeUndefined();
  });
});

describe('RememberedCheck', () => {
  it('answers as the check it remembers, for any sequence of values', () => {
    const capability = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.boolean(), fc.string({ maxLength: 4 }), fc.integer(), fc.constant(null), tie('object')),
      object: fc.dictionary(fc.constantFrom('roots', 'listChanged', 'sampling', 'elicitation', 'form', 'url', 'tools', 'x', '__proto__'), tie('value'), { maxKeys: 3 }),
    })).object;
    fc.assert(
      fc.property(fc.array(capability.map((value) => JSON.parse(JSON.stringify(value)) as unknown), { minLength: 1, maxLength: 30 }), (values) => {
        const remembered = new RememberedCheck(isSpecType.ClientCapabilities);
        // Each value twice: the second answer may come from memory.
        for (const value of [...values, ...values]) expect(remembered.check(value)).toBe(isSpecType.ClientCapabilities(value));
      }),
      { numRuns: 500 },
    );
  });

  it('runs the check once per passing text, every time for a failing one, and stays bounded', () => {
    let runs = 0;
    const remembered = new RememberedCheck((value: unknown): value is { ok: true } => {
      runs += 1;
      return (value as { ok?: unknown }).ok === true;
    });
    for (let i = 0; i < 3; i++) expect(remembered.check({ ok: true })).toBe(true);
    expect(runs).toBe(1);
    for (let i = 0; i < 3; i++) expect(remembered.check({ ok: false })).toBe(false);
    expect(runs).toBe(4);
    const long = { ok: true, pad: 'x'.repeat(RememberedCheck.MAX_TEXT_LENGTH) };
    remembered.check(long);
    remembered.check(long);
    expect(runs).toBe(6);
    for (let i = 0; i < RememberedCheck.MAX_REMEMBERED * 3; i++) remembered.check({ ok: true, i });
    expect(remembered.size).toBeLessThanOrEqual(RememberedCheck.MAX_REMEMBERED);
  });
});
