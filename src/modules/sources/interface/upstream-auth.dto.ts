import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UPSTREAM_AUTH_MODES } from '../domain/upstream-auth.js';

/** The shapes of `upstreamAuth` for the OpenAPI document; the values are checked by checkUpstreamAuth, every problem at once. */
export class OAuthSettingsDto {
  @ApiPropertyOptional({ description: 'A pre-registered client id (absent: dynamic client registration, or clientMetadataUrl).' }) clientId?: string;
  @ApiPropertyOptional({ description: 'The client secret as a `${secret:NAME}` reference to a stored secret, never a literal; only with clientId.', example: '${secret:GITHUB_CLIENT_SECRET}' })
  clientSecret?: string;
  @ApiPropertyOptional({ description: 'A client ID metadata document URL (https) used as client_id where the authorization server supports it.' }) clientMetadataUrl?: string;
  @ApiPropertyOptional({ type: [String], description: "Scopes to ask for (absent: the protected resource metadata's scopes_supported, or none)." }) scopes?: string[];
  @ApiPropertyOptional({ description: 'The authorization server (issuer) to use when the upstream lists several (absent: the first).' }) authorizationServer?: string;
  @ApiPropertyOptional({ description: 'A `${secret:NAME}` reference to a bearer token (a service account\'s) that lists the tools: the source discovers with it rather than waiting for its discovery principal\'s credential. Never used for calls.' }) discoveryToken?: string;
}

export class TokenExchangeSettingsDto {
  @ApiProperty({ description: "The identity provider's token endpoint (https, or http on a loopback address)." }) tokenEndpoint!: string;
  @ApiPropertyOptional({ description: 'RFC 8693 audience of the upstream (audience or resource, or both).' }) audience?: string;
  @ApiPropertyOptional({ description: 'RFC 8693 resource of the upstream (an absolute URL).' }) resource?: string;
  @ApiPropertyOptional({ type: [String] }) scopes?: string[];
  @ApiProperty() clientId!: string;
  @ApiPropertyOptional({ description: 'A `${secret:NAME}` reference, never a literal.' }) clientSecret?: string;
  @ApiPropertyOptional({ description: 'A `${secret:NAME}` reference to a bearer token (a service account\'s) that lists the tools: the source discovers with it rather than waiting for its discovery principal\'s credential. Never used for calls.' }) discoveryToken?: string;
}

export class UpstreamAuthDto {
  @ApiProperty({
    enum: UPSTREAM_AUTH_MODES,
    description:
      "shared: one credential for every caller, from env and headers (the default). user-secret: each caller's own values, from `${user-secret:NAME}` references in env or headers (at least one; refused under other modes). oauth and token-exchange (streamable-http and sse only): each caller's own token. See docs/upstream-credentials.md.",
  })
  mode!: string;
  @ApiPropertyOptional({ type: OAuthSettingsDto, description: 'mode oauth only.' }) oauth?: OAuthSettingsDto;
  @ApiPropertyOptional({ type: TokenExchangeSettingsDto, description: 'mode token-exchange only.' }) tokenExchange?: TokenExchangeSettingsDto;
}

class DiscoveryPrincipalDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
}

export class UpstreamAuthViewDto extends UpstreamAuthDto {
  @ApiPropertyOptional({
    type: DiscoveryPrincipalDto,
    readOnly: true,
    description: 'Per-user modes: the principal whose credential discovers the tools (the one that registered the source, or made it per-user); set by Toolplane.',
  })
  discoveryPrincipal?: DiscoveryPrincipalDto;
}

class PrincipalUserSecretsDto {
  @ApiProperty() principalId!: string;
  @ApiProperty({ type: [String] }) holds!: string[];
  @ApiProperty({ type: [String] }) missing!: string[];
}

export class SourceUserSecretsDto {
  @ApiProperty({ type: [String], description: 'The `${user-secret:NAME}` names the source refers to.' }) names!: string[];
  @ApiProperty({ type: [PrincipalUserSecretsDto], description: 'Each principal holding at least one of them.' }) items!: PrincipalUserSecretsDto[];
}
