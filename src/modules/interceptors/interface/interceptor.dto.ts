import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { optionalFields } from '../../../shared/http/optional-fields.js';
import { PageDto } from '../../../shared/http/page.dto.js';
import type { InterceptorView } from '../application/interceptor-view.js';
import { INTERCEPTOR_KINDS, INTERCEPTOR_PHASES, REDACTION_KINDS } from '../domain/interceptor.js';
import { APPROVAL_LIMITS, APPROVAL_MAX_TIMEOUT_MS, APPROVAL_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, INTERCEPTOR_LIMITS, INTERCEPTOR_NAME_PATTERN, WEBHOOK_TIMEOUT_MS } from '../domain/interceptor-spec.js';
import { ROLES } from '../../../shared/principal/permissions.js';

const PATTERNS = (description: string) => ({ type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9_.*-]{1,200}$' }, minItems: 1, maxItems: INTERCEPTOR_LIMITS.toolPatterns, description }) as const;

const SCOPE: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: false,
  description: 'Where it applies: every field given must match; empty (the default) applies to every call. A scope with `group` applies only to calls made through that group.',
  properties: {
    source: { type: 'string', pattern: INTERCEPTOR_NAME_PATTERN.source, description: "A source's name." },
    group: { type: 'string', pattern: INTERCEPTOR_NAME_PATTERN.source, description: "A tool group's name." },
    tools: PATTERNS('Qualified tool name patterns, `*` any run of characters.'),
  },
  example: { tools: ['fs__*'] },
};

const ARGUMENTS: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: true,
  maxProperties: 100,
  description:
    '**defaults**, **lock**: argument values by name (at most 100, none null, 16 KiB of JSON). `defaults`: used when the caller leaves the argument out; `lock`: every call gets them, a caller giving another value is refused (ARGUMENT_LOCKED).',
  example: { owner: 'acme' },
};

const RULES: ApiPropertyOptions = {
  type: 'array',
  minItems: 1,
  maxItems: INTERCEPTOR_LIMITS.rules,
  description:
    '**deny**: a call is refused by the first rule it meets. A rule meets a call when the tool matches `tools` (if given) and, with `argument`, that argument meets the one condition given; a rule with neither an argument nor a condition refuses the tools it names.',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['message'],
    properties: {
      tools: PATTERNS('Qualified tool name patterns; absent: every tool in scope.'),
      argument: { type: 'string', maxLength: INTERCEPTOR_LIMITS.argumentPath, description: 'A top-level argument, or a dotted path into one (`options.path`); needs a condition.' },
      equals: { description: 'Condition: the value equals this JSON value.' },
      pattern: { type: 'string', maxLength: INTERCEPTOR_LIMITS.pattern, description: 'Condition: the value is a string this RE2 pattern (ECMAScript syntax, linear time) finds a match in.' },
      pathUnder: { type: 'string', pattern: '^/', description: 'Condition: the value, a path normalised, is this absolute prefix or under it.' },
      pathOutside: { type: 'string', pattern: '^/', description: 'Condition: the value, a path normalised, is neither this absolute prefix nor under it.' },
      range: {
        type: 'object',
        additionalProperties: false,
        properties: { min: { type: 'number' }, max: { type: 'number' } },
        description: 'Condition: the value is not a number within [min, max] (either bound optional; min ≤ max).',
      },
      message: { type: 'string', minLength: 1, maxLength: INTERCEPTOR_LIMITS.message, description: 'What the caller (and the model) is told.' },
    },
  },
  example: [{ argument: 'path', pattern: '^/etc/', message: 'Files under /etc are off limits.' }],
};

const DETECT: ApiPropertyOptions = {
  type: 'array',
  items: { type: 'string', enum: [...REDACTION_KINDS] },
  description: '**redact**: the built-in detectors to use; absent: all of them.',
};

const REDACT_PATTERNS: ApiPropertyOptions = {
  type: 'array',
  maxItems: INTERCEPTOR_LIMITS.redactPatterns,
  description: '**redact**: custom RE2 patterns (none matching empty text), each masked as `[name]`.',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'pattern'],
    properties: { name: { type: 'string', pattern: INTERCEPTOR_NAME_PATTERN.source }, pattern: { type: 'string', maxLength: INTERCEPTOR_LIMITS.pattern } },
  },
  example: [{ name: 'ticket', pattern: 'TCK-[0-9]{6}' }],
};

const LIMIT = (description: string): ApiPropertyOptions => ({ type: 'integer', minimum: 1, maximum: INTERCEPTOR_LIMITS.capLimit, description: `**cap**: ${description}` });

/** Every field of an interceptor in its flat form (the kind's own fields beside the common ones), each documented once. */
const FIELDS: Record<string, ApiPropertyOptions> = {
  name: { type: String, pattern: INTERCEPTOR_NAME_PATTERN.source, example: 'no-etc', description: 'A lowercase slug, unique; it cannot change.' },
  description: { type: String, maxLength: INTERCEPTOR_LIMITS.description, description: "Default ''." },
  kind: { enum: [...INTERCEPTOR_KINDS], example: 'deny', description: 'What it does: the fields marked with a kind below are its settings, and only its own are taken.' },
  phase: {
    enum: [...INTERCEPTOR_PHASES],
    description: '`pre`: after the arguments are checked, before the upstream is called; `post`: after it answered. Default: the kind\'s only phase (defaults, lock, deny, approval: pre; redact, cap, output-schema: post); required for webhook.',
  },
  order: { type: 'integer', minimum: -INTERCEPTOR_LIMITS.order, maximum: INTERCEPTOR_LIMITS.order, description: 'Interceptors of one phase run by ascending order, then by name. Default 0.' },
  scope: SCOPE,
  onError: { enum: ['deny', 'allow'], description: 'A failing or slow interceptor refuses the call (`deny`, the default) or lets it go on as if it allowed (`allow`).' },
  timeoutMs: {
    type: 'integer',
    minimum: 1,
    maximum: APPROVAL_MAX_TIMEOUT_MS,
    description: `How long one run may take before it counts as failed: 1–${INTERCEPTOR_LIMITS.timeoutMs}, default ${DEFAULT_TIMEOUT_MS} (${WEBHOOK_TIMEOUT_MS} for webhook). For approval, how long a held call waits for a decision: 1–${APPROVAL_MAX_TIMEOUT_MS} (7 days), default ${APPROVAL_TIMEOUT_MS}.`,
  },
  enabled: { type: Boolean, description: 'Default true; a disabled interceptor is kept but does not run.' },
  arguments: ARGUMENTS,
  rules: RULES,
  detect: DETECT,
  patterns: REDACT_PATTERNS,
  maxBytes: LIMIT("the result's JSON size in bytes."),
  maxBlocks: LIMIT('the number of content blocks.'),
  maxTextLength: LIMIT('the length of each text block, in characters.'),
  action: { enum: ['truncate', 'refuse'], description: '**cap**: over a limit the result is cut with a notice the model sees (`truncate`, the default) or refused.' },
  onMismatch: { enum: ['error', 'warn'], description: '**output-schema**: structuredContent not valid against the tool\'s outputSchema turns the result into an error (`error`, the default) or is noted on the record only (`warn`).' },
  url: { type: String, format: 'uri', maxLength: INTERCEPTOR_LIMITS.url, example: 'https://policy.example.com/toolplane', description: '**webhook**: where the call (pre) or the result (post) is POSTed; http(s), no credential in it, a host remote sources may reach.' },
  signingSecret: {
    type: String,
    example: 'POLICY_HOOK_KEY',
    description: '**webhook**: the name of a stored secret (`PUT /api/v1/secrets/{name}`, stored before the interceptor is written) whose value is the HMAC-SHA256 key of each request.',
  },
  approvers: {
    type: 'object',
    additionalProperties: false,
    properties: {
      roles: { type: 'array', items: { type: 'string', enum: [...ROLES] } },
      principals: { type: 'array', maxItems: APPROVAL_LIMITS.approvers, items: { type: 'string', maxLength: APPROVAL_LIMITS.principal } },
    },
    example: { roles: ['admin'], principals: ['release-manager'] },
    description: '**approval**: who may decide a held call: a role the deciding principal has, or its id or name (at least one entry). The call\'s own caller never may.',
  },
  when: {
    type: 'object',
    additionalProperties: false,
    properties: {
      annotations: { type: 'object', additionalProperties: { type: 'boolean' }, description: 'Each tool annotation named must have this value (an undeclared hint counts as MCP\'s default).' },
      arguments: { type: 'array', maxItems: APPROVAL_LIMITS.conditions, items: { type: 'object', additionalProperties: true }, description: 'Conditions as deny rules write them (argument and one of equals, pattern, pathUnder, pathOutside, range), without message: any one that meets the call.' },
      principals: { type: 'array', items: { type: 'string' }, description: 'Only calls of these principals (ids or names).' },
    },
    example: { annotations: { destructiveHint: true } },
    description: '**approval**: which calls in scope are held: every part given must hold. Absent: every call in scope.',
  },
  notify: {
    type: 'object',
    additionalProperties: false,
    required: ['url', 'signingSecret'],
    properties: { url: { type: 'string', format: 'uri', maxLength: INTERCEPTOR_LIMITS.url }, signingSecret: { type: 'string' } },
    description: '**approval**: a Slack-compatible webhook POSTed a signed message for each held call (docs/approvals.md); the signing secret stored first, its host one remote sources may reach.',
  },
  onTimeout: { enum: ['deny'], description: '**approval**: a held call nobody decided in time is refused (APPROVAL_TIMED_OUT); the only value.' },
};

/** Only names the fields (the settings below): CreateInterceptor checks every value (checkInterceptorSpec), so each problem is reported at once. */
export class CreateInterceptorDto {
  @ApiProperty(FIELDS.name) @Allow() name!: unknown;
  @ApiPropertyOptional(FIELDS.description) @Allow() description?: unknown;
  @ApiProperty(FIELDS.kind) @Allow() kind!: unknown;
}

/**
 * The fields given replace the interceptor's (each as a whole); null puts one back to its default
 * or leaves an optional setting out. A new kind drops the old kind's settings.
 */
export class UpdateInterceptorDto {
  @ApiPropertyOptional({ type: String, description: "Only the interceptor's own name is accepted: an interceptor cannot be renamed." }) @Allow() name?: unknown;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'The version you last read; the change fails with 409 STALE_VERSION if it moved since.' }) @Allow() version?: unknown;
  @ApiPropertyOptional(FIELDS.description) @Allow() description?: unknown;
  @ApiPropertyOptional(FIELDS.kind) @Allow() kind?: unknown;
}

/** The fields after the kind, which a create and a change both only name (checkInterceptorSpec reads them). */
const SETTINGS = ['phase', 'order', 'scope', 'onError', 'timeoutMs', 'enabled', 'arguments', 'rules', 'detect', 'patterns', 'maxBytes', 'maxBlocks', 'maxTextLength', 'action', 'onMismatch', 'url', 'signingSecret', 'approvers', 'when', 'notify', 'onTimeout'] as const;
optionalFields(CreateInterceptorDto, FIELDS, SETTINGS);
optionalFields(UpdateInterceptorDto, FIELDS, SETTINGS);

/** An interceptor as the API answers it: the common fields, its kind's own, then its version and history. */
export class InterceptorDto implements InterceptorView {
  [field: string]: unknown;
  @ApiProperty(FIELDS.name) name!: string;
  @ApiProperty(FIELDS.description) description!: string;
  @ApiProperty(FIELDS.kind) kind!: string;
  @ApiProperty(FIELDS.phase) phase!: string;
  @ApiProperty(FIELDS.order) order!: number;
  @ApiProperty(FIELDS.scope) scope!: Record<string, unknown>;
  @ApiProperty(FIELDS.onError) onError!: string;
  @ApiProperty(FIELDS.timeoutMs) timeoutMs!: number;
  @ApiProperty(FIELDS.enabled) enabled!: boolean;
  @ApiPropertyOptional(FIELDS.arguments) arguments?: Record<string, unknown>;
  @ApiPropertyOptional(FIELDS.rules) rules?: unknown[];
  @ApiPropertyOptional(FIELDS.detect) detect?: string[];
  @ApiPropertyOptional(FIELDS.patterns) patterns?: unknown[];
  @ApiPropertyOptional(FIELDS.maxBytes) maxBytes?: number;
  @ApiPropertyOptional(FIELDS.maxBlocks) maxBlocks?: number;
  @ApiPropertyOptional(FIELDS.maxTextLength) maxTextLength?: number;
  @ApiPropertyOptional(FIELDS.action) action?: string;
  @ApiPropertyOptional(FIELDS.onMismatch) onMismatch?: string;
  @ApiPropertyOptional(FIELDS.url) url?: string;
  @ApiPropertyOptional(FIELDS.signingSecret) signingSecret?: string;
  @ApiPropertyOptional(FIELDS.approvers) approvers?: Record<string, unknown>;
  @ApiPropertyOptional(FIELDS.when) when?: Record<string, unknown>;
  @ApiPropertyOptional(FIELDS.notify) notify?: Record<string, unknown>;
  @ApiPropertyOptional(FIELDS.onTimeout) onTimeout?: string;
  @ApiProperty({ description: 'Bumped by every change.' }) version!: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty() createdBy!: string;
  @ApiProperty() updatedBy!: string;
}

export class InterceptorPageDto extends PageDto(InterceptorDto) {}
