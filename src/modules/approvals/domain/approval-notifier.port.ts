import type { Approval } from './approval.js';

/** Port: tells people a call waits for them (a Slack-compatible webhook). Never throws; failures are logged. */
export abstract class ApprovalNotifier {
  abstract notify(approval: Approval, target: { url: string; signingSecret: string }): Promise<void>;
}
