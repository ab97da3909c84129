import { Inject } from '@nestjs/common';
import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { ApiKeyChanged } from '../domain/api-key-changed.event.js';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';

/** A key revoked or changed through this process is read again by it on the next request. */
@EventsHandler(ApiKeyChanged)
export class ForgetChangedKeysHandler implements IEventHandler<ApiKeyChanged> {
  constructor(@Inject(ApiKeyAuthenticator) private readonly authenticator: ApiKeyAuthenticator) {}

  handle(event: ApiKeyChanged): void {
    this.authenticator.forget(event.hash);
  }
}
