import { Inject, Injectable } from '@nestjs/common';
import type { KnownSecret } from '../../../shared/secret-scrubber.js';
import { UserSecrets } from '../../secrets/domain/user-secret.js';
import { userSecretNames } from '../domain/upstream-auth.js';
import { ModeCredentials, principalPoolKey, type CredentialOutcome, type CredentialRequest } from '../domain/upstream-credentials.js';
import type { UpstreamTarget } from '../domain/upstream.js';
import { renderUserSecrets } from '../domain/value-template.js';

/**
 * `user-secret` mode: the `${user-secret:NAME}` references of a source's env and headers rendered
 * with the calling principal's own stored values. A principal missing one gets none of it sent:
 * the call is refused naming every missing value.
 */
@Injectable()
export class UserSecretCredentials extends ModeCredentials {
  readonly mode = 'user-secret' as const;

  constructor(@Inject(UserSecrets) private readonly secrets: UserSecrets) {
    super();
  }

  async forCall({ target, principal }: CredentialRequest): Promise<CredentialOutcome> {
    const names = userSecretNames(target);
    const values = await this.secrets.reveal(principal.id, names);
    const missing = names.filter((name) => !values.has(name));
    if (missing.length > 0) {
      return {
        kind: 'required',
        code: 'UPSTREAM_CREDENTIAL_REQUIRED',
        message: `Source "${target.sourceName}" needs your own ${missing.map((name) => `\${user-secret:${name}}`).join(', ')}: store ${missing.length === 1 ? 'it' : 'them'} with PUT /api/v1/me/secrets/${missing[0]}${missing.length > 1 ? ' (and the others)' : ''}.`,
        missing,
      };
    }
    return { kind: 'ready', target: withUserSecrets(target, principal.id, values) };
  }

  /** A value is wrong or expired upstream: only its owner can replace it. `target`: as resolved for the source. */
  async afterUnauthorized({ target }: CredentialRequest): Promise<CredentialOutcome> {
    const missing = userSecretNames(target);
    return {
      kind: 'required',
      code: 'UPSTREAM_CREDENTIAL_REQUIRED',
      message: `The upstream of source "${target.sourceName}" refused your ${missing.map((name) => `\${user-secret:${name}}`).join(', ')}: replace ${missing.length === 1 ? 'it' : 'them'} with PUT /api/v1/me/secrets/{name}.`,
      missing,
    };
  }
}

/** The target with the principal's values in place, each one a known secret, in a pool of the principal's own. */
function withUserSecrets(target: UpstreamTarget, principalId: string, values: ReadonlyMap<string, string>): UpstreamTarget {
  const secrets: KnownSecret[] = [...target.secrets];
  const render = (field: Record<string, string>) => {
    const out: Record<string, string> = {};
    for (const [key, template] of Object.entries(field)) {
      let referenced = false;
      out[key] = renderUserSecrets(template, (name) => {
        referenced = true;
        return values.get(name)!;
      });
      if (referenced) secrets.push({ name: key, value: out[key] });
    }
    return out;
  };
  for (const [name, value] of values) secrets.push({ name: `user-secret ${name}`, value });
  return {
    ...target,
    env: render(target.env),
    headers: render(target.headers),
    secrets: Object.freeze(secrets),
    principalId,
    poolKey: principalPoolKey(target.sourceId, principalId),
  };
}
