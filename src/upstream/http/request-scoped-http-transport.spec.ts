import { MessageMeter } from './request-scoped-http-transport.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('MessageMeter', () => {
  test('SSE: many small events never add up to an oversized message', () => {
    const meter = new MessageMeter(100, true);
    const event = bytes(`event: message\ndata: ${'p'.repeat(40)}\n\n`);
    for (let i = 0; i < 1000; i++) expect(meter.add(event)).toBe(false);
  });

  test('SSE: one event over the limit is caught across chunks', () => {
    const meter = new MessageMeter(100, true);
    expect(meter.add(bytes('data: '))).toBe(false);
    expect(meter.add(bytes('x'.repeat(60)))).toBe(false);
    expect(meter.add(bytes('x'.repeat(60)))).toBe(true);
  });

  test('SSE: CRLF event boundaries split between chunks reset the count', () => {
    const meter = new MessageMeter(100, true);
    for (let i = 0; i < 50; i++) {
      expect(meter.add(bytes(`data: ${'y'.repeat(70)}\r\n\r`))).toBe(false);
      expect(meter.add(bytes('\n'))).toBe(false);
    }
    // A single line break is not a boundary.
    expect(meter.add(bytes(`data: ${'z'.repeat(60)}\r\n`))).toBe(false);
    expect(meter.add(bytes(`data: ${'z'.repeat(60)}\r\n`))).toBe(true);
  });

  test('JSON: the whole body counts', () => {
    const meter = new MessageMeter(100, false);
    expect(meter.add(bytes(`{"a":"\n\n${'q'.repeat(50)}`))).toBe(false);
    expect(meter.add(bytes(`\n\n${'q'.repeat(50)}"}`))).toBe(true);
  });
});
