import { createHmac } from 'node:crypto';

/** The header that carries a webhook request's signature. */
export const WEBHOOK_SIGNATURE_HEADER = 'toolplane-signature';
/** How far a receiver should let a signature's timestamp be from its own clock (docs/interceptor-webhook.md). */
export const WEBHOOK_REPLAY_WINDOW_SECONDS = 300;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed by the signing secret's value (UTF-8). */
export function webhookSignature(key: string, unixSeconds: number, body: string): string {
  const mac = createHmac('sha256', key).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
