import { Inject, Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Agent, request } from 'undici';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { guardedLookup, HOST_DENIED, HostDeniedError } from '../../../shared/guarded-lookup.js';
import { hostPolicy, type HostPolicy } from '../../../shared/host-policy.js';
import { firstHeaderValue } from '../../../shared/http/header-value.js';
import { packageVersion } from '../../../shared/package-version.js';
import { Clock } from '../../../shared/unit-of-work.js';
import { SecretRepository } from '../../secrets/domain/secret.js';
import type { InterceptedCall, InterceptorEngine, InterceptorVerdict } from '../domain/intercepted-call.js';
import type { InterceptorPhase, InterceptorSpec } from '../domain/interceptor.js';
import { MAX_WEBHOOK_ANSWER_BYTES, webhookVerdict } from '../domain/webhook-answer.js';
import { webhookRequestBody } from '../domain/webhook-request.js';
import { SigningKeys } from './signing-keys.js';
import { WEBHOOK_SIGNATURE_HEADER, webhookSignature } from './webhook-signature.js';

const USER_AGENT = `Toolplane/${packageVersion() ?? '0.0.0'}`;
/** What of a refused answer's body is read so its connection can be kept; the rest closes it. */
const DRAIN_LIMIT = 64 * 1024;

/**
 * Runs `webhook` interceptors: POSTs the call (pre) or its result (post) as signed JSON to the
 * interceptor's URL and turns the answer into a verdict (docs/interceptor-webhook.md).
 *
 * Connections obey the source host policy (TOOLPLANE_SOURCE_HOSTS_DENY / _ALLOW) as remote
 * sources' do: a literal address is checked before the request, a name by the socket's own lookup
 * (`guardedLookup`), which checks every address it resolves to and hands the socket the address it
 * checked. Connections are kept alive and pooled per origin. Redirects are not followed, the
 * answer is read up to MAX_WEBHOOK_ANSWER_BYTES, and the chain's signal stops the request at any
 * point. Every failure is a thrown Error whose message names what went wrong, never the signing
 * key nor more of the answer than a status or a field's name.
 */
@Injectable()
export class WebhookEngine implements InterceptorEngine, OnApplicationShutdown {
  readonly kind = 'webhook' as const;
  private readonly policy: HostPolicy;
  private readonly agent: Agent;
  private readonly keys: SigningKeys;
  private readonly clock: Clock;

  constructor(
    @Inject(SecretRepository) secrets: SecretRepository,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'sourceHosts'>,
    @Optional() @Inject(Clock) clock?: Clock,
  ) {
    this.policy = hostPolicy(config.sourceHosts);
    this.agent = new Agent({ connect: { lookup: guardedLookup(this.policy) } });
    this.clock = clock ?? { now: () => new Date() };
    this.keys = new SigningKeys(secrets, () => this.clock.now().getTime());
  }

  async run(interceptor: InterceptorSpec, phase: InterceptorPhase, call: InterceptedCall, signal: AbortSignal): Promise<InterceptorVerdict> {
    if (interceptor.kind !== 'webhook') throw new Error(`the webhook engine does not run interceptors of kind "${interceptor.kind}"`);
    const url = webhookUrl(interceptor.settings.url);
    const refusal = this.policy.refusesHost(url.hostname);
    if (refusal) throw new HostDeniedError(refusal);
    const key = await this.keys.key(interceptor.settings.signingSecret);
    const body = JSON.stringify(webhookRequestBody(interceptor.name, phase, call));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': USER_AGENT,
      'toolplane-interceptor': interceptor.name,
      [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(key, Math.floor(this.clock.now().getTime() / 1000), body),
      ...(call.traceparent ? { traceparent: call.traceparent } : {}),
    };
    const text = await this.post(url, headers, body, signal);
    return webhookVerdict(text, phase, call);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.destroy().catch(() => undefined);
  }

  /** POSTs `body` and answers the response's text: a 2xx JSON body within the limit, or a thrown Error. */
  private async post(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<string> {
    let response: Awaited<ReturnType<typeof request>>;
    try {
      signal.throwIfAborted();
      response = await request(url, { method: 'POST', headers, body, signal, dispatcher: this.agent });
    } catch (error) {
      throw requestFailure(error, signal);
    }
    const { statusCode, body: stream } = response;
    const refuse = (message: string): never => {
      stream.dump({ limit: DRAIN_LIMIT }).catch(() => undefined);
      throw new Error(message);
    };
    if (statusCode >= 300 && statusCode < 400) refuse(`the webhook answered a redirect (HTTP ${statusCode}); redirects are not followed`);
    if (statusCode < 200 || statusCode >= 300) refuse(`the webhook answered HTTP ${statusCode}`);
    const type = mediaType(firstHeaderValue(response.headers['content-type']));
    if (type !== 'application/json' && !/^application\/[^/]+\+json$/.test(type)) {
      refuse(`the webhook's answer is not JSON (Content-Type ${type ? JSON.stringify(type.slice(0, 60)) : 'missing'})`);
    }
    const tooLarge = `the webhook's answer is larger than the ${MAX_WEBHOOK_ANSWER_BYTES / 1024 / 1024} MiB limit`;
    if (Number(firstHeaderValue(response.headers['content-length']) ?? 0) > MAX_WEBHOOK_ANSWER_BYTES) {
      stream.destroy();
      throw new Error(tooLarge);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_WEBHOOK_ANSWER_BYTES) {
          stream.destroy();
          throw new Error(tooLarge);
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof Error && error.message === tooLarge) throw error;
      throw requestFailure(error, signal);
    }
    return Buffer.concat(chunks, size).toString('utf8');
  }
}

/** The interceptor's URL, http(s) without credentials in it. */
function webhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error('the webhook URL is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`the webhook URL must be http or https, not ${url.protocol.slice(0, 20)}`);
  if (url.username || url.password) throw new Error('the webhook URL may not carry a user name or password');
  return url;
}

/** Why a request failed, as an Error: the policy's refusal as it is, an abort as such, else the network's code. */
function requestFailure(error: unknown, signal: AbortSignal): Error {
  const denied = deniedBy(error);
  if (denied) return denied;
  if (signal.aborted) {
    // Duck-typed: a DOMException or an error of another realm is no instanceof Error here.
    const reason = (signal.reason as { message?: unknown } | null)?.message;
    const why = typeof reason === 'string' && reason ? `: ${reason}` : '';
    return new Error(`the request to the webhook was stopped${why}`, { cause: error });
  }
  const code = (error as { code?: unknown } | null)?.code;
  const given = (error as { message?: unknown } | null)?.message;
  const message = typeof given === 'string' ? given : String(error);
  return new Error(`the webhook could not be reached: ${typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message}`, { cause: error });
}

/** The host policy's refusal in an error or its causes. */
function deniedBy(error: unknown): Error | undefined {
  let current = error as { code?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; typeof current === 'object' && current !== null && depth < 5; depth++, current = current.cause as typeof current) {
    if (current.code === HOST_DENIED) return current as Error;
  }
  return undefined;
}

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}
