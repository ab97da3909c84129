/** One check of a health endpoint: what it looked at, whether that is up, and what it found. */
export interface HealthCheck {
  name: string;
  up: boolean;
  detail: Record<string, unknown>;
}

export type HealthIndicator = { status: 'up' | 'down' } & Record<string, unknown>;

/** The shape `@nestjs/terminus` answers: overall status, the checks up, the checks down, all of them. */
export interface HealthReport {
  status: 'ok' | 'error';
  info: Record<string, HealthIndicator>;
  error: Record<string, HealthIndicator>;
  details: Record<string, HealthIndicator>;
}

/** The report of `checks`; each check's detail only when `withDetail` (a caller allowed to see it). */
export function healthReport(checks: HealthCheck[], withDetail: boolean): HealthReport {
  const report: HealthReport = { status: checks.every((check) => check.up) ? 'ok' : 'error', info: {}, error: {}, details: {} };
  for (const check of checks) {
    const indicator: HealthIndicator = { status: check.up ? 'up' : 'down', ...(withDetail ? check.detail : {}) };
    (check.up ? report.info : report.error)[check.name] = indicator;
    report.details[check.name] = indicator;
  }
  return report;
}
