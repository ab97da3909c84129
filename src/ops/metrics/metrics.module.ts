import { Global, Module } from '@nestjs/common';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { WorkMetrics } from '../../shared/work-metrics.js';
import { MetricsController } from './metrics.controller.js';
import { PrometheusMetrics } from './prometheus-metrics.js';

/** Prometheus metrics: every module reports through WorkMetrics; `/metrics` serves them. */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [
    { provide: PrometheusMetrics, useFactory: (uow: TypeormUnitOfWork) => new PrometheusMetrics(uow), inject: [TypeormUnitOfWork] },
    { provide: WorkMetrics, useExisting: PrometheusMetrics },
  ],
  exports: [WorkMetrics],
})
export class MetricsModule {}
