import { CallerDeparture } from '../../../../../shared/caller-signal.js';
import { ExecuteToolHarness } from '../../../testing/execute-tool-harness.js';
import { aRoute } from '../../../testing/routes.js';

describe('GuardStage', () => {
  const route = aRoute('everything__echo', { source: { maxConcurrency: 1, timeoutMs: 5000, circuitBreaker: { failureThreshold: 1, resetTimeoutMs: 3000 } } });

  it('gives the call a pass: a slot of its source, its deadline and its signal', async () => {
    const harness = new ExecuteToolHarness({ config: { maxCallTimeoutMs: 4000 } });
    const call = harness.newCall({ qualifiedName: 'everything__echo' }, route);
    expect(await harness.stages.guard.run(call)).toBeUndefined();
    // min(the call's timeoutMs ?? the source's, the process's maximum)
    expect([call.pass?.timeoutMs, call.pass?.deadline]).toEqual([4000, harness.clock.now().getTime() + 4000]);
    expect(harness.bulkheads.forSource(route.source.id, 1).inFlight).toBe(1);
    call.pass!.release();
    expect(harness.bulkheads.forSource(route.source.id, 1).inFlight).toBe(0);
    const shorter = harness.newCall({ qualifiedName: 'everything__echo', timeoutMs: 250 }, route);
    await harness.stages.guard.run(shorter);
    expect(shorter.pass?.timeoutMs).toBe(250);
    shorter.pass!.release();
  });

  it('refuses while the circuit is open, saying when to try again, and takes no slot', async () => {
    const harness = new ExecuteToolHarness();
    harness.circuits.forSource(route.source.id, route.source.circuitBreaker).onFailure(false, harness.clock.now().getTime() - 1000);
    const refusal = await harness.stages.guard.run(harness.newCall({ qualifiedName: 'everything__echo' }, route));
    expect([refusal?.status, refusal?.error]).toEqual([
      'circuit_open',
      { code: 'CIRCUIT_OPEN', message: 'Source "everything" is failing; calls are paused.', retryable: true, retryAfterMs: 2000 },
    ]);
    expect(harness.bulkheads.forSource(route.source.id, 1).inFlight).toBe(0);
  });

  it('refuses at once when the source runs its limit and its queue is full, giving back a half-open trial', async () => {
    const harness = new ExecuteToolHarness({ config: { sourceQueueLimit: 0 } });
    const breaker = harness.circuits.forSource(route.source.id, route.source.circuitBreaker);
    breaker.onFailure(false, harness.clock.now().getTime() - 3000);
    const release = await harness.bulkheads.forSource(route.source.id, 1).acquire();
    const refusal = await harness.stages.guard.run(harness.newCall({ qualifiedName: 'everything__echo' }, route));
    expect([refusal?.status, refusal?.error]).toEqual([
      'rejected',
      { code: 'CONCURRENCY_LIMIT', message: 'Source "everything" is at its concurrency limit: the source already runs 1 calls and 0 more are waiting.', retryable: true, retryAfterMs: 1000 },
    ]);
    release();
    // The trial was given back: the next call is the circuit's trial.
    expect(await harness.stages.guard.run(harness.newCall({ qualifiedName: 'everything__echo' }, route))).toBeUndefined();
  });

  it('refuses a call that waited for a slot past its deadline (TIMEOUT), or whose caller left meanwhile (CANCELLED)', async () => {
    const harness = new ExecuteToolHarness();
    const release = await harness.bulkheads.forSource(route.source.id, 1).acquire();
    const timedOut = await harness.stages.guard.run(harness.newCall({ qualifiedName: 'everything__echo', timeoutMs: 20 }, route));
    expect([timedOut?.status, timedOut?.error]).toEqual(['timeout', { code: 'TIMEOUT', message: 'No slot freed within 20 ms.', retryable: true }]);
    const gone = new CallerDeparture();
    const waiting = harness.stages.guard.run(harness.newCall({ qualifiedName: 'everything__echo' }, route, { signal: gone }));
    gone.abort();
    const cancelled = await waiting;
    expect([cancelled?.status, cancelled?.error]).toEqual(['cancelled', { code: 'CANCELLED', message: 'The caller went away while the call waited for a slot.', retryable: false }]);
    release();
    expect(harness.bulkheads.forSource(route.source.id, 1).queued).toBe(0);
  });

  it("tells the circuit one verdict per pass: the first given, or neutral when the call ends without one", async () => {
    const harness = new ExecuteToolHarness();
    const breaker = harness.circuits.forSource(route.source.id, route.source.circuitBreaker);
    const call = harness.newCall({ qualifiedName: 'everything__echo' }, route);
    await harness.stages.guard.run(call);
    call.pass!.failed(harness.clock.now().getTime());
    call.pass!.succeeded();
    call.pass!.release();
    expect(breaker.snapshot(harness.clock.now().getTime()).state).toBe('open');
  });
});
