import type { TokenExchangeSettings } from '../../sources/domain/upstream-auth.js';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';

export interface ExchangeRequest {
  settings: TokenExchangeSettings;
  /** The client secret, revealed from its `${secret:NAME}` reference (absent: a public client). */
  clientSecret?: string;
  subjectToken: string;
  subjectTokenType: typeof ACCESS_TOKEN_TYPE | typeof ID_TOKEN_TYPE;
  signal?: AbortSignal;
}

export interface ExchangeAnswer {
  accessToken: string;
  expiresIn?: number;
}

/** The identity provider answered, and refused (an OAuth error: invalid_grant, invalid_target, …). */
export class ExchangeRefused extends Error {
  constructor(
    readonly error: string,
    readonly description: string | undefined,
  ) {
    super(description ? `${error}: ${description}` : error);
  }
}

/** The identity provider could not be asked, or answered something that is no token response. */
export class ExchangeUnavailable extends Error {}

/** Port: an RFC 8693 token endpoint. */
export abstract class TokenEndpoint {
  /** Throws ExchangeRefused or ExchangeUnavailable. */
  abstract exchange(request: ExchangeRequest): Promise<ExchangeAnswer>;
}
