import { CLIENT_CAPABILITIES_META_KEY, Client, type ClientCapabilities } from '@modelcontextprotocol/client';
import type { SchemaLimits } from '../shared/json-schema/schema-limits.js';
import { trimOversizedSchemas } from '../shared/json-schema/listing-guard.js';
import { isRecord } from '../shared/is-record.js';
import { TOOLPLANE_CLIENT_INFO } from './client-info.js';

/**
 * What 2025-era connections declare in `initialize`: the requests for input Toolplane puts to the
 * caller of the call they arrive during (when that caller can be asked; else the server gets an
 * error). Not roots: a server may ask for them at any time, outside any call.
 */
export const LEGACY_INPUT_CAPABILITIES: ClientCapabilities = { sampling: {}, elicitation: { form: {} } };

/**
 * The SDK client, declaring `modernCapabilities` in the per-request envelope of 2026-07-28
 * connections, and LEGACY_INPUT_CAPABILITIES in the `initialize` of 2025-era ones.
 */
export class ToolplaneClient extends Client {
  /**
   * Listeners of the progress of upstream tasks, by progress token: a task's progress keeps coming
   * after the `tools/call` that created it was answered, when the SDK no longer knows the token.
   */
  readonly taskProgress = new Map<string, (params: Record<string, unknown>) => void>();

  constructor(
    private readonly modernCapabilities: ClientCapabilities,
    probeTimeoutMs?: number,
    private readonly schemaLimits?: SchemaLimits,
    /** Told of a 2026-07-28 result without `resultType` (read as complete). */
    private readonly onMissingResultType?: () => void,
  ) {
    super(
      { ...TOOLPLANE_CLIENT_INFO },
      {
        capabilities: LEGACY_INPUT_CAPABILITIES,
        // Used only when no era was recorded; a recorded era is passed to connect() as `prior`.
        versionNegotiation: { mode: 'auto', ...(probeTimeoutMs ? { probe: { timeoutMs: probeTimeoutMs } } : {}) },
        // input_required results go back to Toolplane's caller, never fulfilled here.
        inputRequired: { autoFulfill: false },
      },
    );
  }

  /** The `_meta` envelope this client puts on every 2026-07-28 request (undefined on 2025-era connections). */
  metaEnvelope(): Record<string, unknown> | undefined {
    const envelope = this._outboundMetaEnvelope();
    return envelope === undefined ? undefined : { ...envelope };
  }

  /**
   * Three corrections before the SDK reads a response:
   * - schemas over the limits in a `tools/list` result are replaced (see trimOversizedSchemas);
   * - a 2026-07-28 result without `resultType` is read as complete (see checkModernResult), where
   *   the SDK would refuse it;
   * - the SDK handles a response at once but each notification a microtask later, so a progress
   *   notification that arrives right before its request's answer (in the same read) would find
   *   its handler gone and be dropped: a response to a request that listens for progress is
   *   handled after the notifications already received, in the order the upstream sent them.
   */
  protected override _onresponse(response: Parameters<Client['_onresponse']>[0]): void {
    const result = (response as { result?: unknown }).result;
    if (this.schemaLimits && isRecord(result) && Array.isArray(result.tools)) trimOversizedSchemas(result, this.schemaLimits);
    if (isRecord(result) && result.resultType === undefined && this.getProtocolEra() === 'modern') {
      result.resultType = 'complete';
      this.onMissingResultType?.();
    }
    const progressHandlers = (this as unknown as { _progressHandlers: Map<number, unknown> })._progressHandlers;
    if (progressHandlers.has(Number(response.id))) setImmediate(() => super._onresponse(response));
    else super._onresponse(response);
  }

  protected override _onnotification(notification: Parameters<Client['_onnotification']>[0], extra?: Parameters<Client['_onnotification']>[1]): void {
    if (notification.method === 'notifications/progress' && this.taskProgress.size > 0 && isRecord(notification.params)) {
      const token = notification.params.progressToken;
      const listener = typeof token === 'string' ? this.taskProgress.get(token) : undefined;
      if (listener) {
        listener(notification.params);
        return;
      }
    }
    super._onnotification(notification, extra);
  }

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    // The initialize capabilities are the 2025 era's: a 2026-07-28 server is told modernCapabilities alone.
    return envelope === undefined ? undefined : { ...envelope, [CLIENT_CAPABILITIES_META_KEY]: { ...this.modernCapabilities } };
  }
}
