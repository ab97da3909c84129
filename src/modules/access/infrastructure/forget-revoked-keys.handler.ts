import { Inject } from '@nestjs/common';
import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { ApiKeyRevoked } from '../domain/api-key-revoked.event.js';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';

/** A key revoked through this process is refused by it from the next request on. */
@EventsHandler(ApiKeyRevoked)
export class ForgetRevokedKeysHandler implements IEventHandler<ApiKeyRevoked> {
  constructor(@Inject(ApiKeyAuthenticator) private readonly authenticator: ApiKeyAuthenticator) {}

  handle(event: ApiKeyRevoked): void {
    this.authenticator.forget(event.hash);
  }
}
