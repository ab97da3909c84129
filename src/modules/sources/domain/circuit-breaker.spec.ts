import { CircuitBreaker } from './circuit-breaker.js';

describe('CircuitBreaker', () => {
  const settings = { failureThreshold: 3, resetTimeoutMs: 1000 };

  it('opens after the threshold of consecutive failures and refuses until the reset time', () => {
    const breaker = new CircuitBreaker(settings);
    for (let i = 0; i < 2; i++) {
      expect(breaker.admit(0)).toEqual({ admitted: true, trial: false });
      breaker.onFailure(false, 0);
    }
    expect(breaker.snapshot(0).state).toBe('closed');
    breaker.admit(0);
    breaker.onFailure(false, 100);
    expect(breaker.snapshot(100)).toMatchObject({ state: 'open', consecutiveFailures: 3, openedAt: 100, retryAt: 1100 });
    expect(breaker.admit(600)).toEqual({ admitted: false, retryAfterMs: 500 });
  });

  it('a success in between resets the count', () => {
    const breaker = new CircuitBreaker(settings);
    breaker.onFailure(false, 0);
    breaker.onFailure(false, 0);
    breaker.onSuccess(false);
    breaker.onFailure(false, 0);
    expect(breaker.snapshot(0).state).toBe('closed');
  });

  it('lets one trial through when half-open: success closes, failure reopens', () => {
    const breaker = new CircuitBreaker(settings);
    for (let i = 0; i < 3; i++) breaker.onFailure(false, 0);
    expect(breaker.snapshot(1000).state).toBe('half_open');
    expect(breaker.admit(1000)).toEqual({ admitted: true, trial: true });
    expect(breaker.admit(1001).admitted).toBe(false); // one trial at a time
    breaker.onFailure(true, 1200);
    expect(breaker.snapshot(1200)).toMatchObject({ state: 'open', retryAt: 2200 });
    expect(breaker.admit(2200)).toEqual({ admitted: true, trial: true });
    breaker.onSuccess(true);
    expect(breaker.snapshot(2200)).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });

  it('a neutral outcome frees the trial slot without deciding', () => {
    const breaker = new CircuitBreaker(settings);
    for (let i = 0; i < 3; i++) breaker.onFailure(false, 0);
    expect(breaker.admit(1000).admitted).toBe(true);
    breaker.onNeutral(true);
    expect(breaker.admit(1000)).toEqual({ admitted: true, trial: true });
  });
});
