import type { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { PrometheusMetrics } from './prometheus-metrics.js';

describe('interceptor metrics (PrometheusMetrics.interceptorRan)', () => {
  it('counts decisions by interceptor, phase and decision, and times runs by interceptor and phase', async () => {
    // Only the interceptor metrics are read: nothing reaches the database.
    const metrics = new PrometheusMetrics({} as TypeormUnitOfWork);
    metrics.interceptorRan({ interceptor: 'mask-emails', phase: 'post', decision: 'modify', seconds: 0.0002 });
    metrics.interceptorRan({ interceptor: 'mask-emails', phase: 'post', decision: 'modify', seconds: 0.0004 });
    metrics.interceptorRan({ interceptor: 'hook', phase: 'pre', decision: 'error', seconds: 2 });
    const decisions = await metrics.registry.getSingleMetricAsString('toolplane_interceptor_decisions_total');
    expect(decisions).toContain('toolplane_interceptor_decisions_total{interceptor="mask-emails",phase="post",decision="modify"} 2');
    expect(decisions).toContain('toolplane_interceptor_decisions_total{interceptor="hook",phase="pre",decision="error"} 1');
    const seconds = await metrics.registry.getSingleMetricAsString('toolplane_interceptor_duration_seconds');
    expect(seconds).toContain('toolplane_interceptor_duration_seconds_bucket{le="0.00025",interceptor="mask-emails",phase="post"} 1');
    expect(seconds).toContain('toolplane_interceptor_duration_seconds_count{interceptor="hook",phase="pre"} 1');
  });
});
