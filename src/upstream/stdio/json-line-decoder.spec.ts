import fc from 'fast-check';
import { JsonLineDecoder, type OversizedLine } from './json-line-decoder.js';

function decoder(max: number) {
  const lines: string[] = [];
  const dropped: OversizedLine[] = [];
  return { lines, dropped, decoder: new JsonLineDecoder(max, (line) => lines.push(line), (line) => dropped.push(line)) };
}

describe('JsonLineDecoder', () => {
  test('splits lines across arbitrary chunk boundaries, including multi-byte characters and CRLF', () => {
    const { lines, decoder: d } = decoder(1024);
    const bytes = Buffer.from('{"a":"é"}\r\n\n{"b":2}\n{"c"');
    for (let i = 0; i < bytes.length; i++) d.push(bytes.subarray(i, i + 1));
    d.push(Buffer.from(':3}'));
    d.end();
    expect(lines).toEqual(['{"a":"é"}', '{"b":2}', '{"c":3}']);
  });

  test('drops a line over the limit, reports its size and edges, and resynchronises', () => {
    const { lines, dropped, decoder: d } = decoder(100);
    const big = `{"jsonrpc":"2.0","id":7,"result":{"text":"${'x'.repeat(1000)}"}}`;
    d.push(Buffer.from(`{"ok":1}\n${big.slice(0, 400)}`));
    d.push(Buffer.from(`${big.slice(400)}\n{"ok":2}\n`));
    expect(lines).toEqual(['{"ok":1}', '{"ok":2}']);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.bytes).toBe(big.length);
    expect(dropped[0]!.head.startsWith('{"jsonrpc":"2.0","id":7,')).toBe(true);
    expect(dropped[0]!.tail.endsWith('"}}')).toBe(true);
    expect(dropped[0]!.head.length).toBeLessThanOrEqual(256);
  });

  test('a line of exactly the limit passes', () => {
    const { lines, dropped, decoder: d } = decoder(10);
    d.push(Buffer.from('0123456789\n01234567890\n'));
    expect(lines).toEqual(['0123456789']);
    expect(dropped.map((line) => line.bytes)).toEqual([11]);
  });

  test('shows the head of the line not finished yet', () => {
    const { lines, decoder: d } = decoder(16);
    expect(d.pendingHead(8)).toBe('');
    d.push(Buffer.from('{"a":1}\nEnter your API'));
    d.push(Buffer.from(' key: '));
    expect(lines).toEqual(['{"a":1}']);
    expect(d.pendingHead(8)).toBe('Enter yo');
    expect(d.pendingHead(100)).toBe('Enter your API key: ');
    d.push(Buffer.from('x'.repeat(20)));
    expect(d.pendingHead(5)).toBe('Enter');
    d.push(Buffer.from('\n'));
    expect(d.pendingHead(5)).toBe('');
  });

  test('gives the lines a whole-text split gives, however the bytes are cut into chunks, large lines as bytes', () => {
    const text = fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constantFrom('', '\r', ' ', '{"a":1}\r'), fc.string({ minLength: 40, maxLength: 60 })), { maxLength: 12 });
    fc.assert(
      fc.property(text, fc.array(fc.nat(80), { maxLength: 10 }), fc.boolean(), (lines, cuts, unterminated) => {
        const whole = Buffer.from(lines.join('\n') + (unterminated ? '' : '\n'));
        const max = 50;
        const seen: string[] = [];
        const dropped: number[] = [];
        const d = new JsonLineDecoder(max, (line) => seen.push(line), (line) => dropped.push(line.bytes), { minBytes: 20, onLine: (bytes) => seen.push(`bytes:${bytes.toString('utf8')}`) });
        const points = [...new Set(cuts.map((cut) => cut % (whole.length + 1)))].sort((a, b) => a - b);
        let from = 0;
        for (const point of [...points, whole.length]) {
          if (point > from) d.push(whole.subarray(from, point));
          from = Math.max(from, point);
        }
        d.end();
        const expected: string[] = [];
        const expectedDropped: number[] = [];
        const parts = whole.toString('utf8').split('\n');
        if (!unterminated || parts.at(-1) === '') parts.pop();
        for (const part of parts) {
          const bytes = Buffer.byteLength(part);
          if (bytes > max) expectedDropped.push(bytes);
          else if (bytes >= 20) expected.push(`bytes:${part}`);
          else {
            const line = part.endsWith('\r') ? part.slice(0, -1) : part;
            if (line.trim().length > 0) expected.push(line);
          }
        }
        expect(seen).toEqual(expected);
        expect(dropped).toEqual(expectedDropped);
      }),
      { numRuns: 500 },
    );
  });
});
