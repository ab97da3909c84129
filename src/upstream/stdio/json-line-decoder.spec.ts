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
});
