import { Inject, Injectable } from '@nestjs/common';
import type { ProblemDetail } from '../../../../../shared/domain-error.js';
import type { Principal } from '../../../../../shared/principal/principal.js';
import { SecretScrubber } from '../../../../../shared/secret-scrubber.js';
import { UpstreamCredentials } from '../../../../sources/application/upstream-credentials.js';
import { isPerPrincipal } from '../../../../sources/domain/upstream-auth.js';
import type { CredentialOutcome } from '../../../../sources/domain/upstream-credentials.js';
import type { Call } from '../call.js';
import { refuse, type Refusal } from '../outcome.js';
import type { StageVerdict } from './call-stage.js';

/**
 * For a source whose calls carry their caller's own credential (upstreamAuth user-secret, oauth,
 * token-exchange): the target with that credential applied (UpstreamCredentials), in a pool of the
 * caller's own, and the scrubber extended with it. Without one the call is refused —
 * UPSTREAM_CREDENTIAL_REQUIRED naming what is missing, or UPSTREAM_CONSENT_REQUIRED with where to
 * connect — and nothing is sent. A shared source goes through untouched.
 */
@Injectable()
export class AttachCredentialStage {
  constructor(@Inject(UpstreamCredentials) private readonly credentials: UpstreamCredentials) {}

  /** A shared source's call answers at once, without a promise of its own. */
  run(call: Call): StageVerdict | Promise<StageVerdict> {
    const target = call.target!;
    if (!isPerPrincipal(target.auth)) return undefined;
    call.sourceTarget = target;
    return this.credentials.forCall({ target, principal: callerPrincipal(call), callerToken: call.input.callerToken }).then((outcome) => withCredential(call, outcome));
  }
}

/** The principal a call is made for, as far as a credential goes (its identity). */
export function callerPrincipal(call: Call): Principal {
  const { principalId, principalName } = call.command.caller;
  return { id: principalId, name: principalName, kind: 'api-key', roles: [] };
}

/** Puts a ready credential on the call (its target and its scrubber), or answers the refusal of a required one. */
export function withCredential(call: Call, outcome: CredentialOutcome): Refusal | undefined {
  if (outcome.kind === 'required') return credentialRefusal(outcome);
  call.target = outcome.target;
  call.scrubber = SecretScrubber.of(outcome.target.secrets);
  return undefined;
}

/** A call that needs its caller's credential first: 401, with what is missing or where to connect in its details. */
export function credentialRefusal(required: Extract<CredentialOutcome, { kind: 'required' }>): Refusal {
  const details: ProblemDetail[] = [
    ...(required.missing ?? []).map((name) => ({ path: 'missing', message: name })),
    ...(required.connectUrl ? [{ path: 'connectUrl', message: required.connectUrl }] : []),
  ];
  return refuse('rejected', required.code, required.message, false, details.length > 0 ? details : undefined);
}
