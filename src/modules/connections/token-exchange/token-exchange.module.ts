import { Module } from '@nestjs/common';
import { SecretRepository } from '../../secrets/domain/secret.js';
import { SecretsModule } from '../../secrets/secrets.module.js';
import { OAuthTokenEndpoint } from './oauth-token-endpoint.js';
import { TokenEndpoint } from './token-endpoint.js';
import { TokenExchangeCredentials } from './token-exchange-credentials.js';

/** The `token-exchange` ModeCredentials, for the credential dispatcher of the sources module. */
@Module({
  imports: [SecretsModule],
  providers: [
    { provide: TokenEndpoint, useClass: OAuthTokenEndpoint },
    { provide: TokenExchangeCredentials, useFactory: (endpoint: TokenEndpoint, secrets: SecretRepository) => new TokenExchangeCredentials(endpoint, secrets), inject: [TokenEndpoint, SecretRepository] },
  ],
  exports: [TokenExchangeCredentials],
})
export class TokenExchangeModule {}
