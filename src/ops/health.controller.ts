import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Principal } from '../shared/principal/principal.js';
import { PublicWithDetailFor } from '../shared/http/route-access.js';
import { InFlightCalls } from '../modules/execution/application/in-flight-calls.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { SANDBOX_STATUS, UNSANDBOXED_WARNING, type SandboxStatus } from '../upstream/stdio/sandbox-probe.js';
import { DATABASE } from '../shared/database/database.js';
import type { Database } from '../shared/database/database.js';
import { healthReport, type HealthCheck, type HealthReport } from './health-report.js';

class HealthIndicatorDto {
  @ApiProperty({ enum: ['up', 'down'] }) status!: 'up' | 'down';
}

@ApiExtraModels(HealthIndicatorDto)
class HealthDto {
  @ApiProperty({ enum: ['ok', 'error'] }) status!: string;
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/HealthIndicatorDto' }, description: 'The checks that are up.' })
  info!: Record<string, HealthIndicatorDto>;
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/HealthIndicatorDto' }, description: 'The checks that are down.' })
  error!: Record<string, HealthIndicatorDto>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/HealthIndicatorDto' },
    description:
      'Every check; with a credential granting ops:read, each with its detail (latency, migrations, calls in flight, the error). ' +
      '`sandbox` is always up (plugins without a sandbox do not make Toolplane unready); its detail says whether stdio plugins run sandboxed ' +
      '(`enabled`, `mode`, `runAs`) and, when not, `reason`, `warning` and `fix`.',
  })
  details!: Record<string, HealthIndicatorDto>;
}

type RequestWithPrincipal = { principal?: Principal };

/**
 * Liveness and readiness, in the shape `@nestjs/terminus` answers (`status`, `info`, `error`,
 * `details`): a load balancer reads the status code and `status`; an operator with ops:read sees
 * what each check found.
 */
@ApiTags('ops')
@PublicWithDetailFor('ops:read')
@Controller('health')
export class HealthController {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(InFlightCalls) private readonly inFlight: InFlightCalls,
    @Inject(SANDBOX_STATUS) private readonly sandboxStatus: SandboxStatus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Is the process up' })
  @ApiOkResponse({ type: HealthDto, description: 'The process is up and answers.' })
  live(@Req() request: RequestWithPrincipal): HealthReport {
    return healthReport([{ name: 'process', up: true, detail: { uptimeSeconds: Math.round(process.uptime()), pid: process.pid } }], request.principal !== undefined);
  }

  @Get('ready')
  @ApiOperation({ summary: 'Is Toolplane ready to serve (database, migrations, not shutting down)' })
  @ApiOkResponse({ type: HealthDto, description: 'The database answers, every migration is applied, and Toolplane is not shutting down (the plugin sandbox is reported, not required).' })
  @ApiResponse({ status: 503, type: HealthDto, description: 'Not ready: `error` names the checks that are down.' })
  async ready(@Req() request: RequestWithPrincipal, @Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    const checks = [await this.database(), await this.migrations(), this.calls(), this.sandbox()];
    const report = healthReport(checks, request.principal !== undefined);
    if (report.status !== 'ok') void reply.status(503);
    return report;
  }

  private async database(): Promise<HealthCheck> {
    const started = performance.now();
    try {
      await this.db.dataSource.query('SELECT 1');
      return { name: 'database', up: true, detail: { latencyMs: Math.round((performance.now() - started) * 100) / 100 } };
    } catch (error) {
      return { name: 'database', up: false, detail: { message: messageOf(error) } };
    }
  }

  private async migrations(): Promise<HealthCheck> {
    try {
      const known = this.db.dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
      const applied = new Set((await this.db.dataSource.query('SELECT name FROM migrations')).map((row: { name: string }) => row.name));
      const pending = known.filter((name) => !applied.has(name));
      return { name: 'migrations', up: pending.length === 0, detail: { applied: applied.size, pending } };
    } catch (error) {
      return { name: 'migrations', up: false, detail: { message: messageOf(error) } };
    }
  }

  /** A warning, not a readiness condition: plugins without a sandbox still work, only unisolated. */
  private sandbox(): HealthCheck {
    const status = this.sandboxStatus;
    const mode = this.config.sandbox;
    const detail = status.enabled
      ? { enabled: true, mode, runAs: status.policy.runAs ?? null }
      : { enabled: false, mode, reason: status.reason, warning: UNSANDBOXED_WARNING, fix: status.fix };
    return { name: 'sandbox', up: true, detail };
  }

  private calls(): HealthCheck {
    return { name: 'calls', up: !this.inFlight.draining, detail: { draining: this.inFlight.draining, inFlight: this.inFlight.size } };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
