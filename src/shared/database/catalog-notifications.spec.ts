import fc from 'fast-check';
import { decodeCatalogNotice, encodeCatalogNotice, type CatalogNotice } from './catalog-notifications.js';

const word = fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/);

describe('catalog notices', () => {
  it('say which task changed, apart from sources, groups and interceptors', () => {
    expect(encodeCatalogNotice({ origin: 'p1', taskId: '0190f5a8-1c2b-7d3e-8f40-123456789abc' })).toBe('p1 task:0190f5a8-1c2b-7d3e-8f40-123456789abc');
    expect(decodeCatalogNotice('p1 task:0190f5a8-1c2b-7d3e-8f40-123456789abc')).toEqual({ origin: 'p1', taskId: '0190f5a8-1c2b-7d3e-8f40-123456789abc' });
    expect(decodeCatalogNotice('p1 0190f5a8-1c2b-7d3e-8f40-123456789abc')).toEqual({ origin: 'p1', sourceId: '0190f5a8-1c2b-7d3e-8f40-123456789abc' });
  });

  it("carry a session's notice whole, spaces and all", () => {
    const body = JSON.stringify({ principalId: 'k 1', notification: { method: 'notifications/tasks/status', params: { statusMessage: 'waiting for approval' } } });
    expect(decodeCatalogNotice(encodeCatalogNotice({ origin: 'p1', session: { id: 'tps1.abc', body } }))).toEqual({ origin: 'p1', session: { id: 'tps1.abc', body } });
  });

  it('decode as they were encoded, whatever their subject', () => {
    const notice = fc.oneof(
      fc.record({ origin: word, sourceId: fc.uuid() }),
      fc.record({ origin: word, groupName: word }),
      fc.record({ origin: word, interceptorName: word }),
      fc.record({ origin: word, taskId: fc.uuid() }),
      fc.record({ origin: word, session: fc.record({ id: word, body: fc.string() }) }),
      fc.record({ origin: word }),
    );
    fc.assert(fc.property(notice, (sent: CatalogNotice) => expect(decodeCatalogNotice(encodeCatalogNotice(sent))).toEqual(sent)));
  });
});
