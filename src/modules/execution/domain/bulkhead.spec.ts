import { Bulkhead, BulkheadFull, BulkheadWaitAborted } from './bulkhead.js';

describe('Bulkhead', () => {
  it('runs up to the limit, queues up to the queue limit, refuses beyond', async () => {
    const bulkhead = new Bulkhead(2, 1);
    const a = await bulkhead.acquire();
    const b = await bulkhead.acquire();
    let cGranted = false;
    const c = bulkhead.acquire().then((release) => ((cGranted = true), release));
    await expect(bulkhead.acquire()).rejects.toBeInstanceOf(BulkheadFull);
    expect({ inFlight: bulkhead.inFlight, queued: bulkhead.queued }).toEqual({ inFlight: 2, queued: 1 });
    a();
    a(); // releasing twice is harmless
    const releaseC = await c;
    expect(cGranted).toBe(true);
    expect(bulkhead.inFlight).toBe(2);
    b();
    releaseC();
    expect(bulkhead.inFlight).toBe(0);
  });

  it('drops a waiting call whose signal aborts', async () => {
    const bulkhead = new Bulkhead(1, 5);
    const held = await bulkhead.acquire();
    const abort = new AbortController();
    const waiting = bulkhead.acquire(abort.signal);
    abort.abort();
    await expect(waiting).rejects.toBeInstanceOf(BulkheadWaitAborted);
    expect(bulkhead.queued).toBe(0);
    held();
    expect(bulkhead.inFlight).toBe(0);
  });
});
