import { limitResult } from '../domain/tool-result.js';
import { InvocationFailure, ToolInvoker, type InvocationFailureKind, type InvocationOutcome, type InvocationRequest } from '../domain/tool-invoker.port.js';

type Answer = (request: InvocationRequest) => InvocationOutcome | Promise<InvocationOutcome>;

/**
 * ToolInvoker that answers from a script: each attempt takes the next answer queued (`next`,
 * `failWith`), or `otherwise` once the script is used up (by default its arguments echoed as
 * text). Keeps every request.
 */
export class FakeToolInvoker extends ToolInvoker {
  readonly requests: InvocationRequest[] = [];
  private readonly script: Answer[] = [];
  /** Called with each request as it is sent (to look at the world at that moment). */
  onInvoke: ((request: InvocationRequest) => void) | undefined;

  next(answer: Answer): this {
    this.script.push(answer);
    return this;
  }

  /** The next attempt fails as the invoker reports failures. */
  failWith(kind: InvocationFailureKind, message: string, rpcCode?: number, rpcData?: unknown): this {
    return this.next(() => {
      throw new InvocationFailure(kind, message, rpcCode, rpcData);
    });
  }

  /** The next attempt answers this content (measured and capped as the real invoker does). */
  answers(content: unknown[], options: { isError?: boolean; structuredContent?: unknown; meta?: Record<string, unknown> } = {}): this {
    return this.next((request) => result(request, content, options));
  }

  async invoke(request: InvocationRequest): Promise<InvocationOutcome> {
    this.requests.push(request);
    this.onInvoke?.(request);
    return (this.script.shift() ?? this.otherwise)(request);
  }

  otherwise: Answer = (request) => result(request, [{ type: 'text', text: JSON.stringify(request.arguments) }]);
}

function result(request: InvocationRequest, content: unknown[], options: { isError?: boolean; structuredContent?: unknown; meta?: Record<string, unknown> } = {}): InvocationOutcome {
  const limited = limitResult({ isError: options.isError === true, content, structuredContent: options.structuredContent }, request.maxResultBytes);
  return options.meta ? { ...limited, meta: options.meta } : limited;
}
