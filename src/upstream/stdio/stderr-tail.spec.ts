import { StderrTail } from './stderr-tail.js';

describe('StderrTail', () => {
  test('keeps only the last bytes, across wrap-arounds and oversized chunks', () => {
    const tail = new StderrTail(8);
    tail.push(Buffer.from('abc'));
    expect(tail.text()).toBe('abc');
    tail.push(Buffer.from('defgh'));
    expect(tail.text()).toBe('abcdefgh');
    tail.push(Buffer.from('ij'));
    expect(tail.text()).toBe('cdefghij');
    tail.push(Buffer.from('0123456789XYZ'));
    expect(tail.text()).toBe('56789XYZ');
    expect(tail.bytesSeen).toBe(23);
  });

  test('summary trims and shortens from the front', () => {
    const tail = new StderrTail(64);
    tail.push(Buffer.from('  first line\nsecond line\n'));
    expect(tail.summary()).toBe('first line\nsecond line');
    expect(tail.summary(4)).toBe('…line');
  });
});
