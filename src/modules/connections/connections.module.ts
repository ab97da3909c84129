import { Global, Module } from '@nestjs/common';
import { TokenExchangeModule } from './token-exchange/token-exchange.module.js';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { SecretCipher } from '../../shared/crypto/secret-cipher.js';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { hostPolicy } from '../../shared/host-policy.js';
import { packageVersion } from '../../shared/package-version.js';
import { AccessModule } from '../access/access.module.js';
import { AuditModule } from '../audit/audit.module.js';
import { SecretRepository } from '../secrets/domain/secret.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { CompleteAuthorizationHandler } from './application/complete-authorization/complete-authorization.handler.js';
import { ConnectSourceHandler } from './application/connect-source/connect-source.handler.js';
import { DropRevokedKeyConnectionsHandler } from './application/drop-principal-connections/drop-revoked-key-connections.handler.js';
import { DropSourceConnectionsHandler } from './application/drop-source-connections/drop-source-connections.handler.js';
import { ListMyConnectionsHandler } from './application/list-my-connections/list-my-connections.handler.js';
import { ListSourceConnectionsHandler } from './application/list-source-connections/list-source-connections.handler.js';
import { OAuthConnections } from './application/oauth-connections.js';
import { OAuthModeCredentials } from './application/oauth-mode-credentials.js';
import { OpenConnectTicketHandler } from './application/open-connect-ticket/open-connect-ticket.handler.js';
import { RevokeConnectionHandler } from './application/revoke-connection/revoke-connection.handler.js';
import { AuthorizationServers, RegisteredClients } from './domain/authorization-server.js';
import { DiscoveryRefresh, PerUserSources } from './domain/oauth-source.js';
import { ConnectionRepository, PendingFlows } from './domain/ports.js';
import { CommandBusDiscoveryRefresh } from './infrastructure/command-bus-discovery-refresh.js';
import { Oauth4webapiAuthorizationServers } from './infrastructure/oauth4webapi-authorization-servers.js';
import { policyFetch } from './infrastructure/policy-fetch.js';
import { SqlConnectionRepository, SqlPendingFlows, SqlRegisteredClients } from './infrastructure/sql-connections.js';
import { SqlPerUserSources } from './infrastructure/sql-per-user-sources.js';
import { ConnectionsController } from './interface/connections.controller.js';
import { OAuthCallbackController } from './interface/oauth-callback.controller.js';

/** How long one request to an authorization server may take. */
const OAUTH_REQUEST_TIMEOUT_MS = 10_000;
const SECRET_REFERENCE = /^\$\{secret:([A-Za-z_][A-Za-z0-9_.-]{0,127})\}$/;

/** The value a `${secret:NAME}` reference names, or undefined (not a reference, or not stored). */
async function revealReference(secrets: SecretRepository, reference: string): Promise<string | undefined> {
  const name = SECRET_REFERENCE.exec(reference.trim())?.[1];
  return name === undefined ? undefined : secrets.reveal(name);
}

/**
 * Per-user OAuth connections to upstreams (docs/upstream-credentials.md): the connect and callback
 * routes, each principal's tokens, and the `oauth` ModeCredentials a call's credential step asks.
 * Global, so the sources module's credential dispatcher can take OAuthModeCredentials.
 */
@Global()
@Module({
  imports: [AuditModule, SecretsModule, AccessModule, TokenExchangeModule],
  controllers: [ConnectionsController, OAuthCallbackController],
  providers: [
    { provide: PerUserSources, useFactory: (uow: TypeormUnitOfWork) => new SqlPerUserSources(uow), inject: [TypeormUnitOfWork] },
    { provide: ConnectionRepository, useFactory: (uow: TypeormUnitOfWork, cipher: SecretCipher) => new SqlConnectionRepository(uow, cipher), inject: [TypeormUnitOfWork, SecretCipher] },
    { provide: PendingFlows, useFactory: (uow: TypeormUnitOfWork, cipher: SecretCipher) => new SqlPendingFlows(uow, cipher), inject: [TypeormUnitOfWork, SecretCipher] },
    {
      provide: RegisteredClients,
      useFactory: (uow: TypeormUnitOfWork, cipher: SecretCipher, sources: PerUserSources, secrets: SecretRepository) =>
        new SqlRegisteredClients(uow, cipher, async (sourceId) => {
          const source = await sources.byId(sourceId);
          const reference = source?.auth.mode === 'oauth' ? source.auth.oauth.clientSecret : undefined;
          return reference === undefined ? undefined : revealReference(secrets, reference);
        }),
      inject: [TypeormUnitOfWork, SecretCipher, PerUserSources, SecretRepository],
    },
    {
      provide: AuthorizationServers,
      useFactory: (config: AppConfig, secrets: SecretRepository) =>
        new Oauth4webapiAuthorizationServers(policyFetch(hostPolicy(config.sourceHosts), OAUTH_REQUEST_TIMEOUT_MS).fetch, (reference) => revealReference(secrets, reference), `Toolplane ${packageVersion() ?? ''}`.trim()),
      inject: [APP_CONFIG, SecretRepository],
    },
    { provide: DiscoveryRefresh, useFactory: (commands: CommandBus) => new CommandBusDiscoveryRefresh(commands), inject: [CommandBus] },
    OAuthConnections,
    OAuthModeCredentials,
    ConnectSourceHandler,
    OpenConnectTicketHandler,
    CompleteAuthorizationHandler,
    ListMyConnectionsHandler,
    ListSourceConnectionsHandler,
    RevokeConnectionHandler,
    DropRevokedKeyConnectionsHandler,
    DropSourceConnectionsHandler,
  ],
  exports: [OAuthModeCredentials, OAuthConnections],
})
export class ConnectionsModule {}
