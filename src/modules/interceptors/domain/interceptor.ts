import { NamedRepository, type Revision } from '../../../shared/named-resource.js';

/**
 * An interceptor: a configured stage of every tool call it applies to. `pre` interceptors see the
 * arguments before the upstream is called and may change them or refuse the call; `post`
 * interceptors see the result and may change it or turn it into an error. docs/interceptors.md
 * states the rules.
 */

export const INTERCEPTOR_PHASES = ['pre', 'post'] as const;
export type InterceptorPhase = (typeof INTERCEPTOR_PHASES)[number];

export const INTERCEPTOR_KINDS = ['defaults', 'lock', 'deny', 'redact', 'cap', 'output-schema', 'webhook', 'approval'] as const;
export type InterceptorKind = (typeof INTERCEPTOR_KINDS)[number];

/** The phases each kind may run in. */
export const KIND_PHASES: Readonly<Record<InterceptorKind, readonly InterceptorPhase[]>> = {
  defaults: ['pre'],
  lock: ['pre'],
  deny: ['pre'],
  redact: ['post'],
  cap: ['post'],
  'output-schema': ['post'],
  webhook: ['pre', 'post'],
  approval: ['pre'],
};

/** What a failing or slow interceptor means for the call: refuse it (the default) or go on as if it allowed. */
export type InterceptorOnError = 'deny' | 'allow';

/**
 * Where an interceptor applies: every field given must match (an empty scope is everywhere).
 * `source` and `group` are names; `tools` are qualified-name patterns with `*`, as API keys' scopes.
 * A scope with `group` applies only to calls made through that group.
 */
export interface InterceptorScope {
  source?: string;
  group?: string;
  tools?: string[];
}

// ---- what each kind is configured with (the kind's own fields, beside the common ones) ----

/** `defaults`: values for arguments the caller left out. `lock`: values every call gets; a caller giving another value is refused (ARGUMENT_LOCKED). */
export interface ArgumentValuesSettings {
  arguments: Record<string, unknown>;
}

/**
 * One `deny` rule: it denies a call when its tool matches `tools` (if given) and, if `argument`
 * is given, that argument's value meets the one condition given. A rule with neither an argument
 * nor a condition denies the tools it names.
 */
export interface DenyRule {
  /** Qualified-name patterns with `*`; absent: every tool in scope. */
  tools?: string[];
  /** A top-level argument name, or a dotted path into it (`options.path`). */
  argument?: string;
  /** Denied when the value equals this JSON value (deep equality). */
  equals?: unknown;
  /** Denied when the value is a string this RE2 pattern (linear time) finds a match in. */
  pattern?: string;
  /** Denied when the value, a path normalised (`.`/`..` resolved, repeated `/` collapsed), is this prefix or under it. */
  pathUnder?: string;
  /** Denied when the value, a path normalised, is neither this prefix nor under it. */
  pathOutside?: string;
  /** Denied when the value is a number outside [min, max] (either bound optional), or not a number. */
  range?: { min?: number; max?: number };
  /** What the caller (and the model) is told. */
  message: string;
}

export interface DenySettings {
  rules: DenyRule[];
}

export const REDACTION_KINDS = ['email', 'phone', 'card', 'iban', 'secret'] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

/** `redact`: masks what it finds in text content, structured content and resource text as `[kind]`. */
export interface RedactSettings {
  /** Built-in detectors to use; absent: all of them. */
  detect?: RedactionKind[];
  /** Custom RE2 patterns, each masked as `[name]`. */
  patterns?: { name: string; pattern: string }[];
}

/** `cap`: limits on the result; over a limit the result is truncated with a notice the model sees, or refused. */
export interface CapSettings {
  /** The result's JSON size in bytes. */
  maxBytes?: number;
  /** The number of content blocks. */
  maxBlocks?: number;
  /** The length of each text block, in characters. */
  maxTextLength?: number;
  /** Default `truncate`. */
  action?: 'truncate' | 'refuse';
}

/** `output-schema`: structuredContent checked against the tool's outputSchema. */
export interface OutputSchemaSettings {
  /** `error` (the default): a mismatch turns the result into an error; `warn`: it is noted on the record only. */
  onMismatch?: 'error' | 'warn';
}

/** `webhook`: the call (pre) or the result (post) POSTed to a service that decides. docs/interceptors.md gives the contract. */
export interface WebhookSettings {
  /** http(s) URL; the host rules of remote sources apply. */
  url: string;
  /** The name of a stored secret (`PUT /api/v1/secrets/{name}`) whose value is the HMAC-SHA256 key. */
  signingSecret: string;
}

/** A condition of an `approval`'s `when` on one argument: a deny rule's condition, without tools or message. */
export type ApprovalArgumentCondition = Omit<DenyRule, 'tools' | 'message'> & { argument: string };

/** Who may decide a held call: a role the deciding principal has, or its id or name listed. */
export interface ApprovalApprovers {
  roles?: string[];
  principals?: string[];
}

/**
 * `approval`: holds a call until a person decides it (docs/approvals.md). `when` narrows the calls
 * held (every part given must hold; absent: every call in scope); `timeoutMs` is how long the call
 * waits, then it expires (a denial).
 */
export interface ApprovalSettings {
  approvers: ApprovalApprovers;
  when?: {
    /** Tool annotations and the value each must have (an annotation not declared counts as MCP's default). */
    annotations?: Record<string, boolean>;
    /** Held when any of them meets the call's arguments. */
    arguments?: ApprovalArgumentCondition[];
    /** Held when the caller's principal id or name is listed. */
    principals?: string[];
  };
  /** A Slack-compatible webhook told of each held call, signed with the stored secret named. */
  notify?: { url: string; signingSecret: string };
  /** What an approval that nobody decided in time means: only `deny`. */
  onTimeout?: 'deny';
}

export type InterceptorSettings =
  | { kind: 'defaults'; settings: ArgumentValuesSettings }
  | { kind: 'lock'; settings: ArgumentValuesSettings }
  | { kind: 'deny'; settings: DenySettings }
  | { kind: 'redact'; settings: RedactSettings }
  | { kind: 'cap'; settings: CapSettings }
  | { kind: 'output-schema'; settings: OutputSchemaSettings }
  | { kind: 'webhook'; settings: WebhookSettings }
  | { kind: 'approval'; settings: ApprovalSettings };

/** The fields every interceptor has. */
export interface InterceptorCommon {
  name: string;
  description: string;
  phase: InterceptorPhase;
  /** Interceptors of one phase run by ascending order, then by name. */
  order: number;
  scope: InterceptorScope;
  onError: InterceptorOnError;
  /** How long one run may take before it counts as failed (then `onError` applies); for `approval`, how long the held call waits. */
  timeoutMs: number;
  enabled: boolean;
}

/** What an administrator declares of an interceptor. */
export type InterceptorSpec = InterceptorCommon & InterceptorSettings;

export type Interceptor = InterceptorSpec & Revision;

/** Port: stored interceptors. */
export abstract class InterceptorRepository extends NamedRepository<Interceptor> {}

/** Port: the interceptors in force, held in memory and kept current on every change (in this process and, by NOTIFY, in others). */
export abstract class InterceptorsInForce {
  /** Bumped by every change: what is computed from `all()` can be kept until it moves. */
  abstract readonly version: number;
  abstract all(): readonly InterceptorSpec[];
}
