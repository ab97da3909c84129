import { ApiProperty } from '@nestjs/swagger';
import type { ConnectionStatus } from '../domain/upstream-connection.js';

const STATUSES: ConnectionStatus[] = ['connected', 'expired', 'refresh_failed', 'not_connected'];

export class AuthorizationStartDto {
  @ApiProperty({ description: "The authorization server's authorize URL to send the browser to (PKCE S256, state, resource, scopes).", format: 'uri' })
  authorizationUrl!: string;
  @ApiProperty({ format: 'date-time', description: 'When the authorization (its state) expires: ten minutes.' })
  expiresAt!: string;
}

export class ConnectionDto {
  @ApiProperty({ description: 'The source.' }) source!: string;
  @ApiProperty({ enum: ['user-secret', 'oauth', 'token-exchange'], description: 'How the source signs in per user: `oauth` is connected to here; `user-secret` takes your own secrets (`/api/v1/me/secrets`); `token-exchange` your own OIDC sign-in.' }) mode!: 'user-secret' | 'oauth' | 'token-exchange';
  @ApiProperty({ enum: STATUSES, description: '`not_connected`: a per-user source the caller may use and has no connection to.' }) status!: ConnectionStatus;
  @ApiProperty({ type: [String], description: 'The scopes granted.' }) scopes!: string[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the access token ends (it is refreshed a minute before).' }) expiresAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) connectedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) refreshedAt!: string | null;
}

export class ConnectionListDto {
  @ApiProperty({ type: [ConnectionDto] }) items!: ConnectionDto[];
}

export class SourceConnectionDto {
  @ApiProperty() principalId!: string;
  @ApiProperty() principalName!: string;
  @ApiProperty({ enum: STATUSES.filter((status) => status !== 'not_connected') }) status!: ConnectionStatus;
  @ApiProperty({ type: [String] }) scopes!: string[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt!: string | null;
  @ApiProperty({ format: 'date-time' }) connectedAt!: string;
}

export class SourceConnectionListDto {
  @ApiProperty({ type: [SourceConnectionDto] }) items!: SourceConnectionDto[];
}
