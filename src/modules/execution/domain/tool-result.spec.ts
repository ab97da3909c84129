import { jsonBytes, resultBytes } from '../../../shared/json-bytes.js';
import { limitResult } from './tool-result.js';

const text = (value: string) => ({ type: 'text', text: value });
const image = (bytes: number) => ({ type: 'image', mimeType: 'image/png', data: 'A'.repeat(bytes) });

/** Serialized size of what a truncated result holds (content + structuredContent). */
function sizeOf(result: { content: unknown[]; structuredContent?: unknown }): number {
  return resultBytes(result.content, result.structuredContent);
}

describe('limitResult', () => {
  test('a result within the limit is kept as is', () => {
    const content = [text('hello'), image(10), { type: 'resource_link', uri: 'file:///a', name: 'a', extra: { kept: true } }];
    const result = limitResult({ isError: true, content, structuredContent: { ok: 1 } }, 10_000);
    expect(result).toEqual({ kind: 'result', isError: true, content, structuredContent: { ok: 1 }, truncated: false, originalBytes: sizeOf({ content, structuredContent: { ok: 1 } }) });
    expect(result.content).toBe(content);
  });

  test('keeps items in order while they fit, cuts the first text that does not, drops the rest, appends a marker', () => {
    const content = [text('a'.repeat(100)), image(100), text('b'.repeat(5000)), text('never kept'), image(10)];
    const original = sizeOf({ content });
    const result = limitResult({ isError: false, content }, 1000);

    expect(result.truncated).toBe(true);
    expect(result.originalBytes).toBe(original);
    expect(result.content.slice(0, 2)).toEqual([text('a'.repeat(100)), image(100)]);
    const cut = result.content[2] as { type: string; text: string };
    expect(cut.text).toMatch(/^b+$/);
    expect(result.content).toHaveLength(4);
    const kept = result.content.slice(0, 3);
    expect(result.content[3]).toEqual(text(`[Toolplane: result truncated from ${original} bytes to ${jsonBytes(kept)} bytes]`));
    expect(sizeOf(result)).toBeLessThanOrEqual(1000);
    // As much as fits (the marker's reserve assumes the widest numbers, hence a few bytes of slack).
    expect(sizeOf(result)).toBeGreaterThan(1000 - 8);
  });

  test('an item other than text that does not fit ends the content', () => {
    const content = [text('x'.repeat(50)), image(2000), text('small')];
    const result = limitResult({ isError: false, content }, 500);
    expect(result.content).toHaveLength(2);
    expect(result.content[0]).toEqual(text('x'.repeat(50)));
    expect((result.content[1] as { text: string }).text).toMatch(/^\[Toolplane: result truncated from \d+ bytes to 77 bytes\]$/);
  });

  test('structuredContent is kept when it fits on its own and dropped when it does not', () => {
    const structured = { rows: 'r'.repeat(300) };
    const kept = limitResult({ isError: false, content: [text('t'.repeat(2000))], structuredContent: structured }, 1000);
    expect(kept.structuredContent).toEqual(structured);
    expect(kept.truncated).toBe(true);
    expect(sizeOf(kept)).toBeLessThanOrEqual(1000);

    const huge = { rows: 'r'.repeat(5000) };
    const dropped = limitResult({ isError: false, content: [text('short')], structuredContent: huge }, 1000);
    expect(dropped).not.toHaveProperty('structuredContent');
    expect(dropped.content[0]).toEqual(text('short'));
    expect((dropped.content[1] as { text: string }).text).toMatch(/; structuredContent dropped\]$/);
    expect(sizeOf(dropped)).toBeLessThanOrEqual(1000);
  });

  test('escapes and multi-byte characters are counted as serialized, surrogate pairs never split', () => {
    const tricky = '"\\\n\u0001é€😀'.repeat(200);
    const result = limitResult({ isError: false, content: [text(tricky)] }, 700);
    const cut = (result.content[0] as { text: string }).text;
    expect(tricky.startsWith(cut)).toBe(true);
    expect(cut).not.toMatch(/[\ud800-\udbff]$/);
    expect(sizeOf(result)).toBeLessThanOrEqual(700);
  });
});
