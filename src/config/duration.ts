const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const;

/** What TOOLPLANE_EXECUTION_RETENTION may be: between an hour and a hundred years, or off. */
export const MIN_RETENTION_MS = UNIT_MS.h;
export const MAX_RETENTION_MS = 36_500 * UNIT_MS.d;

/**
 * A retention period: `30d`, `12h`, `90m` (minutes: there is no month unit), a plain number of
 * days (`30`), or `off` / `0` (keep everything). Answers milliseconds, null for off, or the
 * problem with the text. At least an hour, so that `6m` meant as months cannot empty the history.
 */
export function parseRetention(raw: string): { ms: number | null } | { problem: string } {
  const text = raw.trim().toLowerCase();
  if (text === 'off' || text === '0') return { ms: null };
  const match = /^(\d{1,9})\s*([dhm]?)$/.exec(text);
  if (!match) return { problem: `must be a duration such as 30d, 12h or 90m, a number of days, or off (got "${raw}")` };
  const unit = (match[2] || 'd') as keyof typeof UNIT_MS;
  const ms = Number(match[1]) * UNIT_MS[unit];
  if (ms === 0) return { ms: null };
  if (ms < MIN_RETENTION_MS) return { problem: `must be at least 1h, or off (got "${raw}": m means minutes; write months as days, e.g. 180d)` };
  if (ms > MAX_RETENTION_MS) return { problem: `must be at most 36500d (got "${raw}")` };
  return { ms };
}

/** A duration as the settings spell it: the largest unit that divides it (`30d`, `36h`, `90m`). */
export function formatRetention(ms: number): string {
  for (const unit of ['d', 'h', 'm'] as const) {
    if (ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${ms}ms`;
}
