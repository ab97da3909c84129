import { Get, Header, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Requires } from '../../shared/http/route-access.js';
import { PrometheusMetrics } from './prometheus-metrics.js';
import { ApiController } from '../../shared/http/api-controller.js';

@ApiController('metrics', 'ops')
export class MetricsController {
  constructor(@Inject(PrometheusMetrics) private readonly metrics: PrometheusMetrics) {}

  /** Prometheus text exposition; for a scraper with a key of a role that has ops:read (admin, operator). */
  @Get()
  @ApiOperation({ summary: 'Prometheus metrics' })
  @Requires('ops:read')
  @Header('cache-control', 'no-store')
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Metrics in the Prometheus text format (version 0.0.4); docs/operations.md says what each means.', schema: { type: 'string' } })
  async scrape(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const { text, contentType } = await this.metrics.exposition();
    void reply.header('content-type', contentType);
    return text;
  }
}
