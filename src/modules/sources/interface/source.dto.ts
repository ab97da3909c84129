import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { IsOmittable, IsStringMap } from '../../../shared/http/validators.js';
import { PINNING_MODES, type PinningMode } from '../../inventory/domain/pinning/pinning.js';
import { LIFECYCLES, SOURCE_NAME_PATTERN, TRANSPORTS } from '../domain/source-settings.js';
import type { StdioLifecycle, TransportKind } from '../domain/source-settings.js';
import type { SourceSpecInput } from '../application/source-spec.js';
import { UpstreamAuthDto } from './upstream-auth.dto.js';

export class CircuitBreakerDto {
  @ApiProperty({ minimum: 1, maximum: 1000, default: 5, description: 'Consecutive failures that open the circuit.' })
  @IsInt()
  @Min(1)
  @Max(1000)
  failureThreshold!: number;

  @ApiProperty({ minimum: 100, maximum: 3_600_000, default: 30000, description: 'How long the circuit stays open before a trial call.' })
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  resetTimeoutMs!: number;
}

const SANDBOX_MAX_PATHS = 32;
/** Absolute, without NUL, without `..` segments, not the root itself. */
const SANDBOX_PATH = /^(?![\s\S]*\/\.\.(?:\/|$))(?!\/+$)\/[^\0]*$/;
const SANDBOX_PATH_MESSAGE = 'each must be an absolute path without NUL characters or ".." segments, and not "/"';

/** A sandbox setting that lists absolute host paths; `field` names it in its problems. */
function SandboxPaths(field: string, description: string): PropertyDecorator {
  // In the order stacked decorators apply (the last written first), so its checks run as they always did.
  return applyDecorators(
    Matches(SANDBOX_PATH, { each: true, message: `${field}: ${SANDBOX_PATH_MESSAGE}` }),
    MaxLength(4096, { each: true }),
    IsString({ each: true }),
    ArrayMaxSize(SANDBOX_MAX_PATHS),
    IsArray(),
    IsOmittable(),
    ApiPropertyOptional({ type: [String], maxItems: SANDBOX_MAX_PATHS, description }),
  );
}

export class SandboxDto {
  @ApiPropertyOptional({ default: true, description: 'Network access (loopback included). false gives the plugin a network namespace of its own with no interfaces but a down loopback.' })
  @IsOmittable()
  @IsBoolean()
  network?: boolean;

  @SandboxPaths('readOnlyPaths', 'Absolute host paths made visible read-only (needed only for paths the base view hides, e.g. under /tmp).')
  readOnlyPaths?: string[];

  @SandboxPaths('writablePaths', 'Absolute host paths the plugin may write to; they must exist and be writable by the sandbox user.')
  writablePaths?: string[];
}

const ENV_DOC =
  'Values are literal text or contain `${secret:NAME}` (a stored secret) or `${env:NAME}` (Toolplane\'s environment) references, and under upstreamAuth mode user-secret `${user-secret:NAME}` (each caller\'s own value, PUT /api/v1/me/secrets/NAME). `${env:…}` never names a variable Toolplane reads itself (`TOOLPLANE_*`, `DATABASE_URL`, `PG*`, `OTEL_*`, `NODE_*`, proxies, …) unless `TOOLPLANE_ENV_REFERENCES_ALLOW` names it (`TOOLPLANE_*` and `DATABASE_URL` never). A variable the manifest declares secret must be a reference.';

/** Settings shared by registration and update. */
class SourceSettingsDto {
  @ApiPropertyOptional({ type: String, maxLength: 1000, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string | null;

  @ApiPropertyOptional({ enum: LIFECYCLES, default: 'transient', description: 'stdio only: a process per call, or one kept alive.' })
  @IsOmittable()
  @IsIn(LIFECYCLES)
  lifecycle?: StdioLifecycle;

  @ApiPropertyOptional({ type: String, description: 'stdio: absolute path of a directory holding server.json or plugin.json.', nullable: true })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  pluginDir?: string | null;

  @ApiPropertyOptional({ minimum: 0, maximum: 49, description: 'Which manifest package to use (default: the first stdio one).' })
  @IsOmittable()
  @IsInt()
  @Min(0)
  @Max(49)
  packageIndex?: number;

  @ApiPropertyOptional({ type: String, description: 'stdio: a command on PATH or an absolute executable; overrides the manifest. Never run through a shell.', nullable: true })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  command?: string | null;

  @ApiPropertyOptional({ type: [String], maxItems: 256, nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(256)
  @IsString({ each: true })
  @MaxLength(32768, { each: true })
  args?: string[] | null;

  @ApiPropertyOptional({ type: String, description: 'stdio: absolute working directory (default: pluginDir).', nullable: true })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  cwd?: string | null;

  @ApiPropertyOptional({ type: SandboxDto, description: 'stdio: what the plugin sandbox adds to the base view; on update, given fields replace the stored ones.' })
  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => SandboxDto)
  sandbox?: SandboxDto;

  @ApiPropertyOptional({ type: String, description: 'streamable-http / sse: the http(s) endpoint.', example: 'https://mcp.example.com/mcp', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  url?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: `streamable-http / sse: request headers. ${ENV_DOC}` })
  @IsOmittable()
  @IsStringMap(100)
  headers?: Record<string, string>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: `stdio: environment variables. ${ENV_DOC}` })
  @IsOmittable()
  @IsStringMap(200)
  env?: Record<string, string>;

  @ApiPropertyOptional({
    type: UpstreamAuthDto,
    nullable: true,
    description: 'How the source authenticates upstream (absent or null: shared). Every problem is reported at once, under upstreamAuth.…',
  })
  @IsOptional()
  @IsObject()
  upstreamAuth?: Record<string, unknown> | null;

  @ApiPropertyOptional({ default: false, description: 'Admit only tools annotated readOnlyHint.' })
  @IsOmittable()
  @IsBoolean()
  readOnly?: boolean;

  @ApiPropertyOptional({ minimum: 100, maximum: 600000, default: 60000 })
  @IsOmittable()
  @IsInt()
  @Min(100)
  @Max(600_000)
  timeoutMs?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 16 })
  @IsOmittable()
  @IsInt()
  @Min(1)
  @Max(1000)
  maxConcurrency?: number;

  @ApiPropertyOptional({
    nullable: true,
    type: Number,
    minimum: 1,
    maximum: 1_000_000,
    description: 'Calls per minute to each tool of this source, from all callers together (a token bucket holding ten seconds of it); null or absent: no limit. Per Toolplane process.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  rateLimitPerMinute?: number | null;

  @ApiPropertyOptional({ minimum: 0, maximum: 604800, default: 300, description: 'Seconds between inventory refreshes; 0 turns them off.' })
  @IsOmittable()
  @IsInt()
  @Min(0)
  @Max(604_800)
  refreshIntervalSeconds?: number;

  @ApiPropertyOptional({ type: CircuitBreakerDto })
  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => CircuitBreakerDto)
  circuitBreaker?: CircuitBreakerDto;

  @ApiPropertyOptional({
    enum: PINNING_MODES,
    default: 'auto',
    description:
      'How new and changed tool definitions are admitted: auto (served unless the definition scan finds a high-severity risk), review (every one waits for a reviewer, GET /api/v1/reviews), off (all served). A held definition is out of every catalog; calls answer 409 TOOL_PENDING_REVIEW.',
  })
  @IsOmittable()
  @IsIn(PINNING_MODES)
  pinning?: PinningMode;

  @ApiPropertyOptional({ default: true })
  @IsOmittable()
  @IsBoolean()
  enabled?: boolean;
}

export class RegisterSourceDto extends SourceSettingsDto {
  @ApiProperty({ pattern: SOURCE_NAME_PATTERN.source, example: 'github' })
  @IsString()
  @Matches(SOURCE_NAME_PATTERN, { message: 'must be a lowercase slug: letters, digits and dashes, 1-63 characters, not starting with a dash' })
  name!: string;

  @ApiProperty({ enum: TRANSPORTS })
  @IsIn(TRANSPORTS)
  transport!: TransportKind;
}

export class UpdateSourceDto extends SourceSettingsDto {
  @ApiPropertyOptional({ description: 'The version you last read; the update fails with 409 STALE_VERSION if it changed since.' })
  @IsOmittable()
  @IsInt()
  @Min(1)
  version?: number;
}

/** A shape-checked registration body as the application layer takes it. */
export function toSourceSpec(dto: RegisterSourceDto): SourceSpecInput {
  return { ...dto, circuitBreaker: dto.circuitBreaker ? { ...dto.circuitBreaker } : undefined, sandbox: dto.sandbox ? { ...dto.sandbox } : undefined };
}
