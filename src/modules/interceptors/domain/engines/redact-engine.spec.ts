import { RE2JS } from 're2js';
import type { ExecutionResult } from '../../../executions/domain/execution.js';
import { aResult, anInterceptedCall, anInterceptor, text } from '../../testing/engine-fixtures.js';
import type { InterceptorVerdict } from '../intercepted-call.js';
import type { RedactSettings } from '../interceptor.js';
import { RedactEngine } from './redact-engine.js';

const CARD = '4111 1111 1111 1111';
const EMAIL = 'jane.doe@example.com';
const PHONE = '+44 20 7946 0958';
const TOKEN = 'ghp_aB3dE5gH7jK9mN1pQ2sT4vW6yZ8cF0hJaB3d';

describe('RedactEngine', () => {
  const engine = new RedactEngine();
  const run = (result: ExecutionResult, settings: RedactSettings = {}) => engine.run(anInterceptor('redact', settings), 'post', anInterceptedCall({ result }));
  const modified = (verdict: InterceptorVerdict) => {
    if (verdict.decision !== 'modify') throw new Error(`expected modify, got ${JSON.stringify(verdict)}`);
    return verdict;
  };

  it('masks text blocks, resource text and every string in structuredContent, counting by kind and naming the blocks', () => {
    const image = { type: 'image', data: 'NDExMTExMTExMTExMTExMQ==', mimeType: 'image/png' };
    const result = aResult(
      [
        text(`Customer ${EMAIL}, card ${CARD}`),
        text('nothing here'),
        image,
        { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: `call ${PHONE} or ${PHONE}` } },
      ],
      { customer: { email: EMAIL, phones: [PHONE, 'none'], 'jane.doe@example.com': 'the key stays' }, count: 4111111111111111 },
    );
    const verdict = modified(run(result));
    expect(verdict.result!.content).toEqual([
      text('Customer [email], card [card]'),
      text('nothing here'),
      image,
      { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'call [phone] or [phone]' } },
    ]);
    expect(verdict.result!.structuredContent).toEqual({ customer: { email: '[email]', phones: ['[phone]', 'none'], 'jane.doe@example.com': 'the key stays' }, count: 4111111111111111 });
    expect(verdict.changes).toEqual({ paths: ['content[0].text', 'content[3].resource.text', 'structuredContent'], counts: { email: 2, card: 1, phone: 3 } });
  });

  it('never puts a value it found on the verdict, outside the keys it leaves alone', () => {
    const verdict = modified(run(aResult([text(`${EMAIL} ${CARD} ${PHONE} ${TOKEN}`)], { token: TOKEN })));
    const told = JSON.stringify(verdict);
    for (const value of [EMAIL, CARD, PHONE, TOKEN]) expect(told).not.toContain(value);
    expect(verdict.changes.counts).toEqual({ email: 1, card: 1, phone: 1, secret: 2 });
  });

  it('keeps originalBytes and truncated as the upstream answer set them', () => {
    const result: ExecutionResult = { content: [text(`mail ${EMAIL}`)], truncated: true, originalBytes: 123_456, meta: { trace: 'x' } };
    const verdict = modified(run(result));
    expect(verdict.result).toEqual({ content: [text('mail [email]')], truncated: true, originalBytes: 123_456, meta: { trace: 'x' } });
    expect(result.content).toEqual([text(`mail ${EMAIL}`)]);
  });

  it('allows a result with nothing to mask, and one without content it reads', () => {
    expect(run(aResult([text('The build passed in 12.5 s on 2024-01-15.')], { ok: true, at: '12:30' }))).toEqual({ decision: 'allow' });
    expect(run(aResult([{ type: 'image', data: 'QUJD', mimeType: 'image/png' }]))).toEqual({ decision: 'allow' });
  });

  it('uses only the detectors chosen, and custom patterns masked by their names', () => {
    const verdict = modified(run(aResult([text(`${EMAIL} ${CARD} order ORD-2024-000123`)]), { detect: ['card'], patterns: [{ name: 'order', pattern: String.raw`\bORD-\d{4}-\d{6}\b` }] }));
    expect(verdict.result!.content).toEqual([text(`${EMAIL} [card] order [order]`)]);
    expect(verdict.changes.counts).toEqual({ card: 1, order: 1 });
  });

  it('compiles custom patterns once per interceptor', () => {
    const interceptor = anInterceptor('redact', { detect: [], patterns: [{ name: 'id', pattern: 'ID-[0-9]+' }] });
    const compile = RE2JS.compile;
    let compiled = 0;
    RE2JS.compile = (...args: Parameters<typeof compile>) => {
      compiled++;
      return compile.apply(RE2JS, args);
    };
    try {
      for (let call = 0; call < 5; call++) expect(engine.run(interceptor, 'post', anInterceptedCall({ result: aResult([text('ID-12')]) })).decision).toBe('modify');
      expect(compiled).toBe(1);
    } finally {
      RE2JS.compile = compile;
    }
  });

  it('walks deep structuredContent without recursion, counts every place a value is masked, and keeps `__proto__` keys own', () => {
    const depth = 20_000;
    const deep = `${'['.repeat(depth)}"${EMAIL}"${']'.repeat(depth)}`;
    const structured = JSON.parse(`{"__proto__": {"mail": "${EMAIL}"}, "again": "${EMAIL}", "deep": ${deep}}`) as Record<string, unknown>;
    const verdict = modified(run({ content: [], structuredContent: structured, truncated: false, originalBytes: deep.length }));
    const redacted = verdict.result!.structuredContent as Record<string, unknown>;
    expect(Object.hasOwn(redacted, '__proto__')).toBe(true);
    expect(redacted.__proto__).toEqual({ mail: '[email]' });
    expect(redacted.again).toBe('[email]');
    let inner: unknown = redacted.deep;
    for (let level = 0; level < depth; level++) inner = (inner as unknown[])[0];
    expect(inner).toBe('[email]');
    expect(verdict.changes.counts).toEqual({ email: 3 });
    expect(structured.again).toBe(EMAIL);
  });
});
