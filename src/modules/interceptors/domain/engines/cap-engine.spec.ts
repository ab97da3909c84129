import fc from 'fast-check';
import { resultBytes } from '../../../../shared/json-bytes.js';
import type { ExecutionResult } from '../../../executions/domain/execution.js';
import { aResult, anInterceptedCall, anInterceptor, text } from '../../testing/engine-fixtures.js';
import type { InterceptorVerdict } from '../intercepted-call.js';
import type { CapSettings } from '../interceptor.js';
import { CapEngine, cutAt } from './cap-engine.js';

describe('CapEngine', () => {
  const engine = new CapEngine();
  const run = (result: ExecutionResult, settings: CapSettings, name = 'small-results') => engine.run(anInterceptor('cap', settings, name), 'post', anInterceptedCall({ result }));
  const modified = (verdict: InterceptorVerdict) => {
    if (verdict.decision !== 'modify') throw new Error(`expected modify, got ${JSON.stringify(verdict).slice(0, 300)}`);
    return verdict;
  };
  const blocks = (count: number, length: number) => Array.from({ length: count }, (_, index) => text(`${index}`.padEnd(length, 'x')));
  const sizeOf = (result: ExecutionResult) => resultBytes(result.content, result.structuredContent);

  it('allows a result within every limit', () => {
    expect(run(aResult(blocks(3, 100), { ok: true }), { maxBytes: 1000, maxBlocks: 3, maxTextLength: 100 })).toEqual({ decision: 'allow' });
  });

  it('truncates to maxBytes: blocks in order while they fit, the next text cut, a notice the model sees', () => {
    const original = aResult(blocks(20, 1000));
    const verdict = modified(run(original, { maxBytes: 5000 }));
    const result = verdict.result!;
    expect(sizeOf(result)).toBeLessThanOrEqual(5000);
    const content = result.content as { text: string }[];
    const notice = content.at(-1)!.text;
    const kept = content.slice(0, -1);
    expect(kept.slice(0, -1)).toEqual(original.content.slice(0, kept.length - 1));
    expect((original.content[kept.length - 1] as { text: string }).text.startsWith(kept.at(-1)!.text)).toBe(true);
    const leftOutBytes = original.originalBytes - resultBytes(kept, undefined);
    expect(notice).toBe(`[Result truncated by Toolplane: interceptor "small-results" allows 5000 bytes; ${20 - kept.length} blocks / ${leftOutBytes} bytes were left out]`);
    expect(result.truncated).toBe(true);
    expect(result.originalBytes).toBe(original.originalBytes);
    expect(verdict.changes).toEqual({ truncated: true, paths: [`content[${kept.length - 1}].text`, `content[${kept.length}:]`] });
  });

  it('keeps the upstream’s originalBytes when the result was truncated before', () => {
    const verdict = modified(run({ content: blocks(5, 100), truncated: true, originalBytes: 9_999_999 }, { maxBlocks: 2 }));
    expect(verdict.result).toMatchObject({ truncated: true, originalBytes: 9_999_999 });
  });

  it('keeps the first maxBlocks blocks, and the notice beyond them', () => {
    const original = aResult(blocks(12, 10));
    const verdict = modified(run(original, { maxBlocks: 10 }, 'x'));
    expect(verdict.result!.content.slice(0, 10)).toEqual(original.content.slice(0, 10));
    expect(verdict.result!.content[10]).toEqual(text(`[Result truncated by Toolplane: interceptor "x" allows 10 blocks; 2 blocks / ${sizeOf(original) - resultBytes(original.content.slice(0, 10), undefined)} bytes were left out]`));
    expect(verdict.changes).toEqual({ truncated: true, paths: ['content[10:]'] });
  });

  it('cuts text blocks longer than maxTextLength, never between the halves of a surrogate pair', () => {
    const verdict = modified(run(aResult([text(`a${'😀'.repeat(10)}`), { type: 'image', data: 'QUJD', mimeType: 'image/png' }, text('short')]), { maxTextLength: 4 }));
    expect(verdict.result!.content.slice(0, 3)).toEqual([text('a😀'), { type: 'image', data: 'QUJD', mimeType: 'image/png' }, text('shor')]);
    expect((verdict.result!.content[3] as { text: string }).text).toContain('allows 4 characters a text block; 0 blocks / ');
    expect(verdict.changes).toEqual({ truncated: true, paths: ['content[0].text', 'content[2].text'] });
  });

  it('drops structuredContent that alone does not fit, and says so', () => {
    const structured = { rows: Array.from({ length: 200 }, (_, index) => ({ index, name: `row ${index}` })) };
    const verdict = modified(run(aResult([text('summary')], structured), { maxBytes: 1000 }));
    expect(verdict.result!.structuredContent).toBeUndefined();
    expect('structuredContent' in verdict.result!).toBe(false);
    expect(verdict.result!.content[0]).toEqual(text('summary'));
    expect((verdict.result!.content[1] as { text: string }).text).toMatch(/; 0 blocks \/ \d+ bytes were left out; structuredContent was dropped\]$/);
    expect(verdict.changes.paths).toEqual(['structuredContent']);
    expect(sizeOf(verdict.result!)).toBeLessThanOrEqual(1000);
  });

  it('keeps structuredContent that fits, cutting the content around it', () => {
    const verdict = modified(run(aResult(blocks(10, 200), { total: 10 }), { maxBytes: 1000 }));
    expect(verdict.result!.structuredContent).toEqual({ total: 10 });
    expect(sizeOf(verdict.result!)).toBeLessThanOrEqual(1000);
  });

  it('leaves out a block that is not text when it does not fit, and everything after it', () => {
    const image = { type: 'image', data: 'A'.repeat(2000), mimeType: 'image/png' };
    const verdict = modified(run(aResult([text('first'), image, text('last')]), { maxBytes: 1000 }));
    expect(verdict.result!.content).toHaveLength(2);
    expect(verdict.result!.content[0]).toEqual(text('first'));
    expect((verdict.result!.content[1] as { text: string }).text).toContain('2 blocks');
  });

  it('refuses instead when told to, saying what is over which limit', () => {
    const verdict = run(aResult([...blocks(3, 50), text('y'.repeat(500))]), { maxBytes: 300, maxBlocks: 2, maxTextLength: 100, action: 'refuse' }, 'tight');
    expect(verdict).toEqual({
      decision: 'deny',
      message: expect.stringMatching(/^The result is larger than the interceptor "tight" allows: \d+ bytes, more than 300; 4 blocks, more than 2; 500 characters, more than 100\.$/),
      details: [
        { path: 'result', message: expect.stringMatching(/^\d+ bytes, more than 300$/) },
        { path: 'content', message: '4 blocks, more than 2' },
        { path: 'content[3].text', message: '500 characters, more than 100' },
      ],
    });
  });

  it('keeps any result within maxBytes as a prefix of its blocks, cut texts whole in their surrogate pairs (property)', () => {
    const block = fc.oneof(
      fc.string({ unit: fc.oneof(fc.constantFrom('a', '"', '\\', '\n', '\u0001', 'é', '€', '😀', '\ud800'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 300 }).map(text),
      fc.record({ type: fc.constant('image'), data: fc.base64String({ maxLength: 400 }), mimeType: fc.constant('image/png') }),
    );
    fc.assert(
      fc.property(fc.array(block, { maxLength: 12 }), fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined }), fc.integer({ min: 300, max: 4000 }), (content, structured, maxBytes) => {
        const original = aResult(content, structured);
        const verdict = run(original, { maxBytes });
        if (original.originalBytes <= maxBytes) return expect(verdict.decision).toBe('allow');
        const result = modified(verdict).result!;
        expect(sizeOf(result)).toBeLessThanOrEqual(maxBytes);
        const kept = result.content.slice(0, -1);
        kept.forEach((item, index) => {
          if (index < kept.length - 1) return expect(item).toEqual(content[index]);
          const whole = content[index] as { text?: string };
          if (whole.text === undefined || (item as { text: string }).text === whole.text) return expect(item).toEqual(whole);
          const cut = (item as { text: string }).text;
          expect(whole.text.startsWith(cut)).toBe(true);
          expect(cutsPair(whole.text, cut.length)).toBe(false);
        });
        if (result.structuredContent !== undefined) expect(result.structuredContent).toEqual(structured);
      }),
      { numRuns: 300 },
    );
  });
});

describe('cutAt', () => {
  test.each([
    ['abcdef', 3, 'abc'],
    ['ab😀', 3, 'ab'],
    ['ab😀', 4, 'ab😀'],
    ['a\ud800b', 2, 'a\ud800'], // a lone surrogate is no pair to keep whole
  ])('%j at %d → %j', (value, length, expected) => expect(cutAt(value, length)).toBe(expected));
});

/** Whether cutting `text` at `at` separates a high surrogate from the low one after it. */
function cutsPair(text: string, at: number): boolean {
  const high = text.charCodeAt(at - 1);
  const low = text.charCodeAt(at);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}
