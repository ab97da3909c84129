import fc from 'fast-check';
import { createdKey, decodeCursor, encodeCursor, pageByName, pageOf } from './cursor.js';

describe('keyset cursors', () => {
  it('decodes what it encoded, and refuses any other text as INVALID_CURSOR', () => {
    fc.assert(
      fc.property(fc.record({ at: fc.string(), id: fc.oneof(fc.string(), fc.integer()) }), (key) => {
        const cursor = encodeCursor(key);
        if (cursor.length <= 512) expect(decodeCursor(cursor, ['at', 'id'])).toEqual(key);
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), (text) => {
        let decoded: unknown;
        try {
          decoded = decodeCursor<{ at: string }>(text, ['at']);
        } catch (error) {
          expect(error).toMatchObject({ code: 'INVALID_CURSOR', details: [{ path: 'cursor', message: 'is not a cursor this endpoint issued' }] });
          return;
        }
        if (text !== '') expect(typeof (decoded as { at: unknown }).at === 'string' || typeof (decoded as { at: unknown }).at === 'number').toBe(true);
      }),
    );
  });

  it('pages rows read one beyond the limit: the next cursor only when more follow, keyed by the last row shown', () => {
    const rows = [1, 2, 3].map((n) => ({ id: `r${n}`, createdAt: new Date(Date.UTC(2026, 0, n)) }));
    const full = pageOf(rows, 2, (row) => row.id, createdKey);
    expect(full.items).toEqual(['r1', 'r2']);
    expect(decodeCursor(full.nextCursor!, ['at', 'id'])).toEqual({ at: '2026-01-02T00:00:00.000Z', id: 'r2' });
    expect(pageOf(rows, 3, (row) => row.id, createdKey)).toEqual({ items: ['r1', 'r2', 'r3'], nextCursor: null });
    expect(pageOf([], 3, (row: { id: string; createdAt: Date }) => row.id, createdKey)).toEqual({ items: [], nextCursor: null });
  });

  it('pages by name from the name after the cursor', async () => {
    const names = ['a', 'b', 'c'];
    const read = async (after: string | undefined, limit: number) => names.filter((name) => after === undefined || name > after).slice(0, limit).map((name) => ({ name }));
    const first = await pageByName(undefined, 2, read, (row) => row.name);
    expect(first.items).toEqual(['a', 'b']);
    expect(await pageByName(first.nextCursor!, 2, read, (row) => row.name)).toEqual({ items: ['c'], nextCursor: null });
  });
});
