import { UpstreamAuthViewDto } from './upstream-auth.dto.js';
import { SOURCE_HEALTHS } from '../domain/source-settings.js';
import { DefinitionFindingDto } from '../../inventory/interface/finding.dto.js';
import { PINNING_MODES, type PinningMode } from '../../inventory/domain/pinning/pinning.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CircuitBreakerDto } from './source.dto.js';
import { PageDto } from '../../../shared/http/page.dto.js';

export class VariableDeclarationDto {
  @ApiProperty() name!: string;
  @ApiPropertyOptional() description?: string;
  @ApiProperty() isRequired!: boolean;
  @ApiProperty() isSecret!: boolean;
  @ApiPropertyOptional() default?: string;
  @ApiPropertyOptional() format?: string;
  @ApiPropertyOptional({ type: [String] }) choices?: string[];
}

export class VariableViewDto {
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['literal', 'reference', 'mixed', 'default'] }) origin!: string;
  @ApiProperty({ type: [String], example: ['secret:GITHUB_TOKEN'] }) references!: string[];
  @ApiProperty({ description: 'Declared by the manifest.' }) declared!: boolean;
  @ApiProperty() isSecret!: boolean;
  @ApiProperty() isRequired!: boolean;
  @ApiPropertyOptional({ description: 'Only for a literal the manifest declares non-secret.' }) value?: string;
}

export class ManifestViewDto {
  @ApiProperty({ enum: ['server.json', 'plugin.json'] }) file!: string;
  @ApiProperty() name!: string;
  @ApiProperty() version!: string;
  @ApiPropertyOptional() description?: string;
  @ApiProperty({ type: [VariableDeclarationDto] }) env!: VariableDeclarationDto[];
}

export class ProtocolViewDto {
  @ApiProperty({ enum: ['modern', 'legacy'], description: 'modern = 2026-07-28 and later, legacy = the initialize era.' }) era!: string;
  @ApiProperty({ example: '2025-11-25' }) version!: string;
}

export class ServerInfoDto {
  @ApiProperty() name!: string;
  @ApiPropertyOptional() version?: string;
}

export class CircuitViewDto {
  @ApiProperty({ enum: ['closed', 'open', 'half_open'] }) state!: string;
  @ApiProperty() consecutiveFailures!: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) openedAt!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'When an open circuit lets a trial call through.' }) retryAt!: string | null;
}

export class SandboxViewDto {
  @ApiProperty() network!: boolean;
  @ApiProperty({ type: [String] }) readOnlyPaths!: string[];
  @ApiProperty({ type: [String] }) writablePaths!: string[];
}

export class DiscoveryViewDto {
  @ApiProperty({ format: 'date-time' }) since!: string;
  @ApiProperty({ description: 'What it has got to: its step and, while a stdio plugin has not spoken MCP yet, what it wrote instead.', example: 'connecting: the plugin wrote nothing on stdout; its stderr ends with: loading the model' })
  progress!: string;
}

class SkippedToolDto {
  @ApiProperty({ description: 'As the upstream listed it, unstorable characters as \\u escapes, at most 100 characters.' }) name!: string;
  @ApiProperty({ example: 'its description holds a NUL character or a lone UTF-16 surrogate' }) reason!: string;
}

export class SourceResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ enum: ['stdio', 'streamable-http', 'sse'] }) transport!: string;
  @ApiProperty({ enum: ['transient', 'singleton'] }) lifecycle!: string;
  @ApiProperty({ nullable: true, type: String }) pluginDir!: string | null;
  @ApiProperty({ nullable: true, type: ManifestViewDto }) manifest!: ManifestViewDto | null;
  @ApiProperty({ nullable: true, type: String }) command!: string | null;
  @ApiProperty({ type: [String] }) args!: string[];
  @ApiProperty({ nullable: true, type: String }) cwd!: string | null;
  @ApiProperty({ type: SandboxViewDto, description: 'stdio: what the plugin sandbox adds to the base view.' }) sandbox!: SandboxViewDto;
  @ApiProperty({ nullable: true, type: String }) url!: string | null;
  @ApiProperty({ type: [VariableViewDto] }) env!: VariableViewDto[];
  @ApiProperty({ type: [VariableViewDto] }) headers!: VariableViewDto[];
  @ApiProperty({ type: UpstreamAuthViewDto, description: 'How the source authenticates upstream ({"mode": "shared"} unless per-user).' }) upstreamAuth!: UpstreamAuthViewDto;
  @ApiProperty() readOnly!: boolean;
  @ApiProperty({ enum: PINNING_MODES, description: 'How new and changed tool definitions are admitted: auto, review or off.' }) pinning!: PinningMode;
  @ApiProperty() timeoutMs!: number;
  @ApiProperty() maxConcurrency!: number;
  @ApiProperty({ nullable: true, type: Number, description: 'Calls per minute to each tool; null: no limit.' }) rateLimitPerMinute!: number | null;
  @ApiProperty() refreshIntervalSeconds!: number;
  @ApiProperty({ type: CircuitBreakerDto }) circuitBreaker!: CircuitBreakerDto;
  @ApiProperty({ type: CircuitViewDto, description: 'The circuit breaker as the answering process sees it.' }) circuit!: CircuitViewDto;
  @ApiProperty({
    nullable: true,
    type: DiscoveryViewDto,
    description: 'The discovery under way in the answering process, if any. A registration or update that stopped waiting for its discovery (TOOLPLANE_REGISTRATION_WAIT_MS) answers with it here.',
  })
  discovery!: DiscoveryViewDto | null;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ enum: SOURCE_HEALTHS, description: 'awaiting_connection: a per-user source whose discovery principal has no credential yet; it discovers once that principal has one.' }) health!: string;
  @ApiProperty({ nullable: true, type: String }) lastError!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) lastRefreshAt!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) lastSuccessAt!: string | null;
  @ApiProperty() consecutiveFailures!: number;
  @ApiProperty({ description: 'Active tools discovered.' }) toolCount!: number;
  @ApiProperty({ nullable: true, type: String }) inventoryHash!: string | null;
  @ApiProperty({ nullable: true, type: ProtocolViewDto }) protocol!: ProtocolViewDto | null;
  @ApiProperty({ nullable: true, type: ServerInfoDto }) serverInfo!: ServerInfoDto | null;
  @ApiProperty({ type: [SkippedToolDto], description: 'Tools the last discovery listed but could not keep (a NUL or lone surrogate in the name or text, an over-long name or description), with the reasons; the others are discovered as usual.' })
  skippedTools!: SkippedToolDto[];
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ description: 'Optimistic-lock version; send it back on PATCH.' }) version!: number;
}

export class SourcePageDto extends PageDto(SourceResponseDto) {}

export class InventoryChangesDto {
  @ApiProperty() added!: number;
  @ApiProperty() changed!: number;
  @ApiProperty() deprecated!: number;
  @ApiProperty() restored!: number;
  @ApiProperty() unchanged!: number;
}

class ProblemDto {
  @ApiProperty() path!: string;
  @ApiProperty() message!: string;
}

class ResolvedLaunchDto {
  @ApiProperty() transport!: string;
  @ApiProperty() lifecycle!: string;
  @ApiProperty({ nullable: true, type: String }) command!: string | null;
  @ApiProperty({ type: [String] }) args!: string[];
  @ApiProperty({ nullable: true, type: String }) cwd!: string | null;
  @ApiProperty({ nullable: true, type: String }) url!: string | null;
  @ApiProperty({ nullable: true, type: Object }) manifest!: { file: string; name: string; version: string } | null;
}

class ConnectionReportDto {
  @ApiProperty() ok!: boolean;
  @ApiPropertyOptional() error?: string;
  @ApiProperty() durationMs!: number;
  @ApiPropertyOptional({ type: ProtocolViewDto }) protocol?: ProtocolViewDto;
  @ApiPropertyOptional({ type: ServerInfoDto }) serverInfo?: ServerInfoDto;
}

class ToolPreviewDto {
  @ApiProperty() name!: string;
  @ApiProperty() qualifiedName!: string;
  @ApiPropertyOptional() title?: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) annotations?: Record<string, unknown>;
  @ApiProperty({ type: [DefinitionFindingDto], description: 'What the definition scan finds in the definition (against the tools of the other sources).' }) findings!: DefinitionFindingDto[];
  @ApiProperty({ description: "Whether the source's pinning would hold the tool for review on registration (see pinning)." }) held!: boolean;
}

export class ValidationReportDto {
  @ApiProperty({ description: 'No problems and the connection worked.' }) valid!: boolean;
  @ApiProperty({ type: [ProblemDto] }) problems!: ProblemDto[];
  @ApiProperty({ type: [String] }) notes!: string[];
  @ApiProperty({ nullable: true, type: ResolvedLaunchDto }) resolved!: ResolvedLaunchDto | null;
  @ApiProperty({ nullable: true, type: ConnectionReportDto }) connection!: ConnectionReportDto | null;
  @ApiProperty({ type: [ToolPreviewDto] }) tools!: ToolPreviewDto[];
}
