import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { DomainError } from '../../../shared/domain-error.js';
import { ROLES } from '../../../shared/principal/permissions.js';
import { ROLE_SCOPE_PREFIX } from '../infrastructure/oidc-verifier.js';
import { Public } from '../../../shared/http/route-access.js';

/** The metadata an MCP client reads to find where to get a token for a resource (RFC 9728). */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: string[];
  resource_name: string;
}

/** The scope that holds each role; the MCP endpoints need the agent's (an admin's works too). */
export const MCP_SCOPE = `${ROLE_SCOPE_PREFIX}agent`;

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) at the path-specific well-known URIs of the MCP
 * endpoints (and of Toolplane as a whole), as the MCP authorization spec asks. Served only when an
 * issuer is configured (TOOLPLANE_OIDC_ISSUER); API keys need no discovery.
 */
@Public()
@ApiExcludeController()
@Controller('.well-known/oauth-protected-resource')
export class ProtectedResourceController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get()
  root(): ProtectedResourceMetadata {
    return this.metadata('');
  }

  @Get('mcp')
  mcp(): ProtectedResourceMetadata {
    return this.metadata('/mcp');
  }

  @Get('mcp/gateway')
  gateway(): ProtectedResourceMetadata {
    return this.metadata('/mcp/gateway');
  }

  @Get('mcp/sources/:name')
  source(@Param('name') name: string): ProtectedResourceMetadata {
    return this.metadata(`/mcp/sources/${encodeURIComponent(name)}`);
  }

  @Get('mcp/groups/:name')
  group(@Param('name') name: string): ProtectedResourceMetadata {
    return this.metadata(`/mcp/groups/${encodeURIComponent(name)}`);
  }

  private metadata(path: string): ProtectedResourceMetadata {
    const oidc = this.config.oidc;
    if (!oidc) throw new DomainError('not_found', 'NOT_FOUND', 'No authorization server is configured: use an API key.');
    return {
      resource: `${oidc.audience}${path}`,
      authorization_servers: [oidc.issuer],
      scopes_supported: ROLES.map((role) => `${ROLE_SCOPE_PREFIX}${role}`),
      bearer_methods_supported: ['header'],
      resource_name: 'Toolplane',
    };
  }
}
