import { SseDataParser } from './sse-data-parser.js';
import { headerValue } from './direct-tool-call.js';

const bytes = (text: string) => new TextEncoder().encode(text);

function feed(parser: SseDataParser, ...chunks: string[]): (string[] | 'overflow')[] {
  return chunks.map((chunk) => parser.push(bytes(chunk)));
}

describe('SseDataParser', () => {
  test('yields the data of each complete event, ignoring other fields and comments', () => {
    const parser = new SseDataParser(1024);
    expect(feed(parser, ': keep-alive\n\nevent: message\nid: 7\ndata: {"a":1}\n\ndata:{"b":2}\n\n')).toEqual([['{"a":1}', '{"b":2}']]);
  });

  test('joins multi-line data with newlines and accepts CRLF and CR line ends', () => {
    const parser = new SseDataParser(1024);
    expect(feed(parser, 'data: one\r\ndata: two\r\n\r\n', 'data: three\r\rdata\n\n')).toEqual([['one\ntwo'], ['three', '']]);
  });

  test('events split across chunks anywhere, including between CR and LF', () => {
    const parser = new SseDataParser(1024);
    expect(feed(parser, 'da', 'ta: hel', 'lo\r', '\n\r', '\n', 'data: x\n', '\n')).toEqual([[], [], [], ['hello'], [], [], ['x']]);
  });

  test('multi-byte characters split across chunks survive', () => {
    const parser = new SseDataParser(1024);
    const all = bytes('data: é€😀\n\n');
    expect([parser.push(all.subarray(0, 7)), parser.push(all.subarray(7))]).toEqual([[], ['é€😀']]);
  });

  test('an event over the limit is reported, even before its line ends', () => {
    expect(new SseDataParser(32).push(bytes(`data: ${'x'.repeat(40)}`))).toBe('overflow');
    expect(new SseDataParser(32).push(bytes(`data: ${'x'.repeat(10)}\ndata: ${'y'.repeat(20)}\n`))).toBe('overflow');
    // The limit is per event: many small events in one chunk are fine.
    expect(new SseDataParser(32).push(bytes('data: small\n\n'.repeat(20)))).toHaveLength(20);
  });
});

describe('headerValue (Mcp-Name)', () => {
  test('plain ASCII names pass through; others use the base64 form', () => {
    expect(headerValue('get_weather-v2.1')).toBe('get_weather-v2.1');
    expect(headerValue('météo')).toBe(`=?base64?${Buffer.from('météo').toString('base64')}?=`);
    expect(headerValue(' padded')).toMatch(/^=\?base64\?/);
    expect(headerValue('')).toBe('=?base64??=');
    expect(headerValue('=?base64?abc?=')).toMatch(/^=\?base64\?PT9iYXNlNjQ/);
  });
});
