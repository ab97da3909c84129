import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Agent, request } from 'undici';
import { guardedLookup } from '../../../shared/guarded-lookup.js';
import { hostPolicy, type HostPolicy, type HostPolicyLists } from '../../../shared/host-policy.js';
import { packageVersion } from '../../../shared/package-version.js';
import type { SecretRepository } from '../../secrets/domain/secret.js';
import { SigningKeys } from '../../interceptors/infrastructure/signing-keys.js';
import { WEBHOOK_SIGNATURE_HEADER, webhookSignature } from '../../interceptors/infrastructure/webhook-signature.js';
import type { Approval } from '../domain/approval.js';
import { approvalConsoleUrl, approvalMessage } from '../domain/approval-message.js';
import { ApprovalNotifier } from '../domain/approval-notifier.port.js';

const USER_AGENT = `Toolplane/${packageVersion() ?? '0.0.0'}`;
/** A notification that takes longer is given up (and logged). */
const NOTIFY_TIMEOUT_MS = 10_000;

/**
 * Tells a Slack-compatible webhook of a held call: `{text, blocks}` naming the tool and the caller,
 * with the console's link to decide it, signed as webhook interceptors' requests are
 * (`Toolplane-Signature: t=…,v1=…`, HMAC-SHA256 keyed by the stored signing secret). The host
 * policy of remote sources applies (checked by the socket's own lookup); redirects are not
 * followed; a failure is logged with the approval and the status or network code, never the key.
 */
export class WebhookApprovalNotifier extends ApprovalNotifier implements OnApplicationShutdown {
  private readonly logger = new Logger('approvals');
  private readonly policy: HostPolicy;
  private readonly agent: Agent;
  private readonly keys: SigningKeys;

  constructor(
    secrets: SecretRepository,
    hosts: HostPolicyLists,
    private readonly publicUrl: string,
  ) {
    super();
    this.policy = hostPolicy(hosts);
    this.agent = new Agent({ connect: { lookup: guardedLookup(this.policy) } });
    this.keys = new SigningKeys(secrets);
  }

  async notify(approval: Approval, target: { url: string; signingSecret: string }): Promise<void> {
    try {
      const url = new URL(target.url);
      const refusal = this.policy.refusesHost(url.hostname);
      if (refusal) throw new Error(refusal);
      const key = await this.keys.key(target.signingSecret);
      const body = JSON.stringify(approvalMessage(approval, approvalConsoleUrl(this.publicUrl, approval.id)));
      const response = await request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'toolplane-approval': approval.id,
          [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(key, Math.floor(Date.now() / 1000), body),
        },
        body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS),
      });
      await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      if (response.statusCode < 200 || response.statusCode >= 300) throw new Error(`it answered HTTP ${response.statusCode}`);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn(`the notification of approval ${approval.id} to ${safeOrigin(target.url)} failed: ${message.slice(0, 300)}${typeof code === 'string' && !message.includes(code) ? ` (${code})` : ''}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.destroy().catch(() => undefined);
  }
}

/** Only the origin of a URL is logged: its path may be a credential (Slack's incoming webhooks are). */
function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(not a URL)';
  }
}
