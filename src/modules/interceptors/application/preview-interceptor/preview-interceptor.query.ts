import { Query } from '@nestjs/cqrs';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import type { InterceptorChanges } from '../../domain/intercepted-call.js';

/** What an interceptor would do to a sample call. */
export interface InterceptorPreview {
  /** Whether it would run on a call like this one: enabled, and its scope matching. What it would do is shown either way. */
  applies: boolean;
  /** Why it would not apply. */
  why?: string;
  /** The tool the sample calls: as the inventory knows it, or a stand-in (no schema, its source read from the name) for a name it does not know. */
  tool: { qualifiedName: string; source: string; known: boolean };
  /** `error`: it failed or timed out; its onError then decides (`refused`). */
  decision: 'allow' | 'modify' | 'deny' | 'error' | 'hold';
  /** Whether the call would be refused: a denial, or a failure under onError deny. */
  refused: boolean;
  /** deny: what the caller would be told; error: why it failed. */
  message?: string;
  warning?: string;
  /** The error code of a refusal (INTERCEPTOR_DENIED, ARGUMENT_LOCKED, INTERCEPTOR_FAILED, …). */
  code?: string;
  details?: ProblemDetail[];
  /** What changed: paths and counts (empty unless it modified the call). */
  changes: InterceptorChanges;
  /** pre: the arguments as the upstream would get them. */
  arguments?: Record<string, unknown>;
  /** post: the result as the caller would get it, and whether it is a tool error. */
  result?: { content: unknown[]; structuredContent?: unknown; isError: boolean };
  durationMs: number;
}

/** PreviewInterceptor: runs an interceptor not saved once on a sample call; calls no upstream, stores nothing. */
export class PreviewInterceptorQuery extends Query<InterceptorPreview> {
  constructor(
    /** `{interceptor, call}`: the interceptor as `POST /api/v1/interceptors` takes it, and the sample call. */
    readonly input: Record<string, unknown>,
    /** Who asks: the principal the interceptor sees as the caller. */
    readonly principal: { id: string; name: string },
    /** Problems the request's shape check found already. */
    readonly shapeProblems: readonly ProblemDetail[] = [],
  ) {
    super();
  }
}
