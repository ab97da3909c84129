import { Inject, Injectable } from '@nestjs/common';
import type { ProblemList } from '../../../shared/domain-error.js';
import { isRecord } from '../../../shared/is-record.js';
import { SecretRepository } from '../../secrets/domain/secret.js';
import { RemoteHostCheck } from '../../sources/domain/ports.js';
import { parseRemoteUrl } from '../../sources/domain/remote-url.js';
import type { InterceptorSpec } from '../domain/interceptor.js';
import { checkInterceptorSpec, type InterceptorSpecInput } from '../domain/interceptor-spec.js';

/**
 * An interceptor as it may be written now: checkInterceptorSpec's rules, and what only the stored
 * state can tell — a webhook's signing secret is stored, and its host is one remote sources may
 * reach (the host as written and every address it resolves to now). The REST API and
 * configuration as code check through it alike.
 */
@Injectable()
export class InterceptorSpecChecker {
  constructor(
    @Inject(SecretRepository) private readonly secrets: SecretRepository,
    @Inject(RemoteHostCheck) private readonly hosts: RemoteHostCheck,
  ) {}

  /** The whole interceptor, every problem added; the spec when there is none. */
  async check(input: InterceptorSpecInput, problems: ProblemList): Promise<InterceptorSpec | undefined> {
    const before = problems.all.length;
    const spec = checkInterceptorSpec(input, problems) as InterceptorSpec;
    if (input.kind === 'webhook') await this.checkWebhookTargets(input, problems);
    if (input.kind === 'approval' && isRecord(input.notify)) await this.checkWebhookTargets(input.notify, problems, 'notify.');
    return problems.all.length > before ? undefined : spec;
  }

  /** A webhook's (or an approval's `notify`: `prefix` 'notify.') URL host and signing secret. */
  private async checkWebhookTargets(input: Record<string, unknown>, problems: ProblemList, prefix = ''): Promise<void> {
    // Only values of the right shape: a wrong one has its problem already.
    const secret = !problems.has(`${prefix}signingSecret`) && typeof input.signingSecret === 'string' ? input.signingSecret : undefined;
    const parsed = !problems.has(`${prefix}url`) && typeof input.url === 'string' ? parseRemoteUrl(input.url) : undefined;
    const [stored, hostProblem] = await Promise.all([
      secret === undefined ? undefined : this.secrets.existing([secret]),
      parsed && 'url' in parsed ? this.hosts.problem(parsed.url) : undefined,
    ]);
    if (secret !== undefined && !stored?.has(secret)) problems.add(`${prefix}signingSecret`, `names no stored secret: store its value first (PUT /api/v1/secrets/${secret})`);
    if (hostProblem) problems.add(`${prefix}url`, hostProblem);
  }
}
