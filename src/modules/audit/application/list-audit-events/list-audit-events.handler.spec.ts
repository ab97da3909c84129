import { randomBytes } from 'node:crypto';
import { rejection } from '../../../../shared/testing/rejection.js';
import { Ed25519AuditSigner } from '../../infrastructure/ed25519-audit-signer.js';
import { anAuditEvent } from '../../testing/builders.js';
import { InMemoryAuditReads } from '../../testing/in-memory-audit-reads.js';
import { ListAuditEventsHandler } from './list-audit-events.handler.js';
import { AuditEventFilter, ListAuditEventsQuery } from './list-audit-events.query.js';

function setup() {
  const reads = new InMemoryAuditReads(new Ed25519AuditSigner(randomBytes(32)));
  const handler = new ListAuditEventsHandler(reads);
  const list = (limit: number, cursor?: string, filter: AuditEventFilter = {}) => handler.execute(new ListAuditEventsQuery(filter, cursor, limit));
  /** The ids of every page from the first, following the cursors (a cursor leading back fails, not loops). */
  const walk = async (limit: number, filter: AuditEventFilter = {}) => {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await list(limit, cursor, filter);
      pages.push(page.items.map((event) => event.id));
      cursor = page.nextCursor ?? undefined;
      if (pages.length > 100) throw new Error(`the cursors lead on past 100 pages: ${JSON.stringify(pages.slice(0, 5))}`);
    } while (cursor);
    return pages;
  };
  return { reads, list, walk };
}

describe('ListAuditEventsHandler', () => {
  it('answers each event with its place in the chain, newest first', async () => {
    const f = setup();
    const [put, deleted] = f.reads.append(
      anAuditEvent({ requestId: 'req-1', clientAddress: '127.0.0.1' }),
      anAuditEvent({ action: 'secret.deleted', details: {} }),
    );

    const page = await f.list(10);

    expect(page).toEqual({
      items: [
        expect.objectContaining({ id: deleted!.id, action: 'secret.deleted', seq: 2, hash: deleted!.hash, requestId: null, clientAddress: null }),
        {
          id: put!.id,
          occurredAt: put!.occurredAt.toISOString(),
          actor: 'admin',
          action: 'secret.put',
          targetType: 'secret',
          targetId: null,
          targetName: 'GITHUB_TOKEN',
          details: { created: true },
          seq: 1,
          hash: put!.hash,
          requestId: 'req-1',
          clientAddress: '127.0.0.1',
        },
      ],
      nextCursor: null,
    });
  });

  it('pages by the cursor without repeating or skipping events that occurred in the same instant', async () => {
    const f = setup();
    const instant = new Date('2026-02-01T10:00:00.000Z');
    const events = f.reads.append(
      anAuditEvent({ occurredAt: new Date('2026-02-01T09:00:00.000Z') }),
      anAuditEvent({ occurredAt: instant }),
      anAuditEvent({ occurredAt: instant }),
      anAuditEvent({ occurredAt: instant }),
      anAuditEvent({ occurredAt: new Date('2026-02-01T11:00:00.000Z') }),
    );
    const [a, b, c, d, e] = events.map((event) => event.id);

    expect(await f.walk(2)).toEqual([[e, d], [c, b], [a]]);
    expect(await f.walk(5)).toEqual([[e, d, c, b, a]]);
  });

  it('lists only what the filter matches, a target by its id or its name', async () => {
    const f = setup();
    const [byName, , byId] = f.reads.append(
      anAuditEvent({ targetType: 'source', action: 'source.updated', targetId: 'src-1', targetName: 'files' }),
      anAuditEvent({ targetType: 'source', action: 'source.updated', targetId: 'src-2', targetName: 'other' }),
      anAuditEvent({ targetType: 'source', action: 'source.updated', targetId: 'files', targetName: 'renamed' }),
      anAuditEvent({ targetType: 'secret', action: 'secret.put', targetName: 'files' }),
    );

    expect(await f.walk(1, { targetType: 'source', target: 'files' })).toEqual([[byId!.id], [byName!.id]]);
  });

  it('refuses a cursor it did not issue with INVALID_CURSOR on cursor, before reading the trail', async () => {
    const f = setup();
    for (const cursor of ['not a cursor!', Buffer.from('{"at":"2026-01-01T00:00:00Z"}').toString('base64url'), Buffer.from('[1]').toString('base64url')]) {
      const error = await rejection(f.list(10, cursor));
      expect(error).toMatchObject({ kind: 'invalid', code: 'INVALID_CURSOR', details: [{ path: 'cursor', message: 'is not a cursor this endpoint issued' }] });
    }
    expect(f.reads.calls).toEqual([]);
  });
});
