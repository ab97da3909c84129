import { ProtocolError, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import type { UpstreamTarget } from '../modules/sources/domain/upstream.js';
import type { ClientUseOptions, TransportFactory } from './transport-factory.js';
import { UpstreamError } from './upstream-error.js';

/** The prompt and resource requests an upstream answers on behalf of its source's MCP endpoint. */
export type PrimitiveMethod = 'prompts/list' | 'prompts/get' | 'resources/list' | 'resources/templates/list' | 'resources/read';

/** Which of the relayed primitives the upstream declared when it was connected. */
export interface PrimitiveCapabilities {
  prompts: boolean;
  resources: boolean;
}

export interface PrimitiveAnswer {
  /** The result as the upstream sent it (after the era codec), unknown fields included. */
  result: Record<string, unknown>;
  capabilities: PrimitiveCapabilities;
}

/** The upstream answered with a JSON-RPC error: relayed to the caller as it came. */
export class UpstreamRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'UpstreamRpcError';
  }
}

/** Accepts any result: the methods' own schemas would strip fields Toolplane does not know. */
const RAW_RESULT: StandardSchemaV1<unknown, unknown> = {
  '~standard': { version: 1, vendor: 'toolplane', validate: (value) => ({ value }) },
};

const PHASES: Record<PrimitiveMethod, string> = {
  'prompts/list': 'listing prompts',
  'prompts/get': 'getting a prompt',
  'resources/list': 'listing resources',
  'resources/templates/list': 'listing resource templates',
  'resources/read': 'reading a resource',
};

/**
 * Prompt and resource requests over the TransportFactory's connections (pooled, or per use for
 * transient stdio sources). A 2026-07-28 `input_required` answer to prompts/get or resources/read
 * is handed back, never fulfilled here; its continuation is a fresh request carrying the caller's
 * `inputResponses` and the byte-exact `requestState`.
 */
export class UpstreamPrimitives {
  constructor(private readonly transports: TransportFactory) {}

  async request(target: UpstreamTarget, method: PrimitiveMethod, params: Record<string, unknown>, options: ClientUseOptions): Promise<PrimitiveAnswer> {
    try {
      return await this.transports.withClient(
        target,
        async (session) => {
          session.setPhase(PHASES[method]);
          const capabilities = primitiveCapabilities(session.client.getServerCapabilities());
          const result = await session.client.request({ method, params } as never, RAW_RESULT, { ...session.requestOptions(), allowInputRequired: true });
          if (typeof result !== 'object' || result === null || Array.isArray(result)) throw new UpstreamRpcError(-32603, `The upstream answered ${method} with a result that is not an object`);
          return { result: result as Record<string, unknown>, capabilities };
        },
        options,
      );
    } catch (error) {
      throw rpcErrorOf(error) ?? error;
    }
  }

  /** What the upstream declared, connecting first when no connection is open. */
  capabilities(target: UpstreamTarget, options: ClientUseOptions): Promise<PrimitiveCapabilities> {
    return this.transports.withClient(target, async (session) => primitiveCapabilities(session.client.getServerCapabilities()), options);
  }
}

function primitiveCapabilities(declared: { prompts?: unknown; resources?: unknown } | undefined): PrimitiveCapabilities {
  return { prompts: declared?.prompts !== undefined, resources: declared?.resources !== undefined };
}

/** The upstream's JSON-RPC error behind a protocol failure (withClient wraps it into an UpstreamError). */
function rpcErrorOf(error: unknown): UpstreamRpcError | undefined {
  if (!(error instanceof UpstreamError) || error.kind !== 'protocol') return undefined;
  let current: unknown = error.cause;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof UpstreamRpcError) return current;
    if (current instanceof ProtocolError) return new UpstreamRpcError(current.code, current.message, current.data);
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
