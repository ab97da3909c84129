import { formatRetention, parseRetention } from './duration.js';

const DAY = 86_400_000;

describe('parseRetention', () => {
  it('reads days, hours and minutes, and a plain number as days', () => {
    expect(parseRetention('30d')).toEqual({ ms: 30 * DAY });
    expect(parseRetention('12h')).toEqual({ ms: 12 * 3_600_000 });
    expect(parseRetention('90m')).toEqual({ ms: 90 * 60_000 });
    expect(parseRetention('30')).toEqual({ ms: 30 * DAY });
    expect(parseRetention(' 7D ')).toEqual({ ms: 7 * DAY });
    expect(parseRetention('36500d')).toEqual({ ms: 36_500 * DAY });
  });

  it('turns retention off with off or zero', () => {
    expect(parseRetention('off')).toEqual({ ms: null });
    expect(parseRetention('OFF')).toEqual({ ms: null });
    expect(parseRetention('0')).toEqual({ ms: null });
    expect(parseRetention('0d')).toEqual({ ms: null });
  });

  it('refuses anything else, naming what it got', () => {
    for (const raw of ['', 'forever', '30 days', '1.5d', '-1d', '30w', '2y', '30s', 'd', '1e3']) {
      expect(parseRetention(raw)).toEqual({ problem: expect.stringContaining(`"${raw}"`) });
    }
  });

  it('refuses less than an hour (6m is six minutes, not months) and more than a hundred years', () => {
    expect(parseRetention('6m')).toEqual({ problem: expect.stringContaining('at least 1h') });
    expect(parseRetention('59m')).toEqual({ problem: expect.stringContaining('at least 1h') });
    expect(parseRetention('60m')).toEqual({ ms: 3_600_000 });
    expect(parseRetention('36501d')).toEqual({ problem: expect.stringContaining('at most 36500d') });
  });
});

describe('formatRetention', () => {
  it('spells a duration with the largest unit that divides it', () => {
    expect(formatRetention(30 * DAY)).toBe('30d');
    expect(formatRetention(36 * 3_600_000)).toBe('36h');
    expect(formatRetention(90 * 60_000)).toBe('90m');
  });
});
