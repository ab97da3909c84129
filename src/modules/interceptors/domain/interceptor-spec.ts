import { RE2JS } from 're2js';
import { canonicalJson } from '../../../shared/canonical-json.js';
import type { ProblemList } from '../../../shared/domain-error.js';
import { isRecord } from '../../../shared/is-record.js';
import { nearMiss } from '../../../shared/near-miss.js';
import { maskUrlCredentials } from '../../../shared/url-credentials.js';
import { SCOPE_PATTERN } from '../../access/domain/tool-scope.js';
import { checkArgumentValues, GROUP_LIMITS, GROUP_NAME_PATTERN, hasControlCharacters } from '../../groups/domain/group-spec.js';
import { SECRET_NAME_PATTERN } from '../../secrets/domain/secret.js';
import { parseRemoteUrl } from '../../sources/domain/remote-url.js';
import { SOURCE_NAME_PATTERN } from '../../sources/domain/source-settings.js';
import { isRole, ROLES } from '../../../shared/principal/permissions.js';
import {
  INTERCEPTOR_KINDS,
  INTERCEPTOR_PHASES,
  KIND_PHASES,
  REDACTION_KINDS,
  type ApprovalApprovers,
  type ApprovalArgumentCondition,
  type ApprovalSettings,
  type CapSettings,
  type DenyRule,
  type InterceptorKind,
  type InterceptorPhase,
  type InterceptorScope,
  type InterceptorSettings,
  type InterceptorSpec,
  type RedactSettings,
} from './interceptor.js';

/**
 * An interceptor as the REST API and configuration files write it: flat, the common fields beside
 * the kind's own (`{"name": "no-etc", "kind": "deny", "rules": [...]}`); in the domain the kind's
 * fields are its `settings`. checkInterceptorSpec reads the one, flatInterceptor writes it back.
 */
export type InterceptorSpecInput = Record<string, unknown>;

/** An interceptor's name follows a source's rule: a lowercase slug. */
export const INTERCEPTOR_NAME_PATTERN = SOURCE_NAME_PATTERN;

export const INTERCEPTOR_LIMITS = {
  description: 2_000,
  /** `order` lies within ±order. */
  order: 1_000_000,
  timeoutMs: 60_000,
  /** Tool patterns of the scope, and of each deny rule. */
  toolPatterns: 100,
  rules: 100,
  /** A deny rule's `argument`: a name or a dotted path. */
  argumentPath: 200,
  message: 2_000,
  /** One RE2 pattern, in characters. */
  pattern: 1_000,
  /** RE2 patterns in one interceptor (deny rules' and redact's together): each is compiled when written, in a few milliseconds. */
  patterns: 50,
  /** A path prefix of pathUnder or pathOutside. */
  path: 1_024,
  /** The JSON of one rule's `equals`. */
  equalsBytes: 4_096,
  redactPatterns: 50,
  url: 2_048,
  /** maxBytes, maxBlocks and maxTextLength. */
  capLimit: 2_147_483_647,
  /** The canonical JSON of one interceptor's settings (its kind's fields) as a whole. */
  settingsBytes: 65_536,
} as const;

export const DEFAULT_TIMEOUT_MS = 1_000;
export const WEBHOOK_TIMEOUT_MS = 5_000;
/** An approval's timeoutMs is how long the held call waits: an hour unless given, at most 7 days. */
export const APPROVAL_TIMEOUT_MS = 3_600_000;
export const APPROVAL_MAX_TIMEOUT_MS = 7 * 24 * 3_600_000;

/** Approvers and `when.principals` listed in one approval interceptor, and `when.arguments` conditions. */
export const APPROVAL_LIMITS = { approvers: 100, principal: 200, conditions: 100 } as const;

/** The timeoutMs a kind's interceptor gets when it gives none. */
export function defaultTimeoutMs(kind: InterceptorKind | undefined): number {
  return kind === 'webhook' ? WEBHOOK_TIMEOUT_MS : kind === 'approval' ? APPROVAL_TIMEOUT_MS : DEFAULT_TIMEOUT_MS;
}

/** The largest timeoutMs a kind's interceptor may give. */
export function maxTimeoutMs(kind: InterceptorKind | undefined): number {
  return kind === 'approval' ? APPROVAL_MAX_TIMEOUT_MS : INTERCEPTOR_LIMITS.timeoutMs;
}

/** The common fields, in the order a file writes them. */
export const COMMON_FIELDS = ['name', 'description', 'kind', 'phase', 'order', 'scope', 'onError', 'timeoutMs', 'enabled'] as const;

/** Each kind's own fields, in the order a file writes them. */
export const KIND_FIELDS: Readonly<Record<InterceptorKind, readonly string[]>> = {
  defaults: ['arguments'],
  lock: ['arguments'],
  deny: ['rules'],
  redact: ['detect', 'patterns'],
  cap: ['maxBytes', 'maxBlocks', 'maxTextLength', 'action'],
  'output-schema': ['onMismatch'],
  webhook: ['url', 'signingSecret'],
  approval: ['approvers', 'when', 'notify', 'onTimeout'],
};

const COMMON: ReadonlySet<string> = new Set(COMMON_FIELDS);
const SETTING_FIELDS: ReadonlySet<string> = new Set(Object.values(KIND_FIELDS).flat());
const ALL_FIELDS = [...COMMON_FIELDS, ...SETTING_FIELDS];
const SCOPE_FIELDS = ['source', 'group', 'tools'];
const RULE_FIELDS = ['tools', 'argument', 'equals', 'pattern', 'pathUnder', 'pathOutside', 'range', 'message'];
const CONDITIONS = ['equals', 'pattern', 'pathUnder', 'pathOutside', 'range'] as const;
const REDACTIONS: ReadonlySet<string> = new Set(REDACTION_KINDS);
const SLUG_RULE = 'must be a lowercase slug: letters, digits and dashes, 1-63 characters, not starting with a dash';

/** The defaults of the common fields a kind's interceptor gets when they are left out (phase only for a kind of one phase). */
export function commonDefaults(kind: InterceptorKind): { description: string; phase?: InterceptorPhase; order: number; scope: InterceptorScope; onError: 'deny'; timeoutMs: number; enabled: boolean } {
  const phases = KIND_PHASES[kind];
  return {
    description: '',
    ...(phases.length === 1 ? { phase: phases[0] } : {}),
    order: 0,
    scope: {},
    onError: 'deny',
    timeoutMs: defaultTimeoutMs(kind),
    enabled: true,
  };
}

/** The kinds whose fields include `field`. */
export function kindsOf(field: string): InterceptorKind[] {
  return INTERCEPTOR_KINDS.filter((kind) => KIND_FIELDS[kind].includes(field));
}

/**
 * Checks an interceptor in its flat form, every problem added under its JSON path, unknown
 * properties included, and answers it as an InterceptorSpec (the kind's fields as `settings`),
 * its common fields defaulted. A null top-level field is a field left out. `partial` (a PATCH):
 * only the fields given are checked, each kind field by the rule of the kind it belongs to, and
 * the answer holds only the common fields given; what holds only of a whole interceptor (a
 * required field, the phase its kind allows, at least one limit) is checked once the change is
 * put over the stored interceptor.
 */
export function checkInterceptorSpec(input: InterceptorSpecInput, problems: ProblemList, partial = false): Partial<InterceptorSpec> {
  const has = (key: string) => input[key] !== undefined && input[key] !== null;
  const spec: Partial<InterceptorSpec> = {};

  const kind = isKind(input.kind) ? input.kind : undefined;
  for (const key of Object.keys(input)) {
    if (COMMON.has(key)) continue;
    if (!SETTING_FIELDS.has(key)) {
      const meant = nearMiss(key, ALL_FIELDS);
      problems.add(key, meant === undefined ? 'is not a known property' : `is not a known property; did you mean \`${meant}\`?`);
    } else if (kind !== undefined && !KIND_FIELDS[kind].includes(key) && has(key)) {
      problems.add(key, `is not a setting of a ${kind} interceptor (${kindsOf(key).join(', ')} only); its settings: ${KIND_FIELDS[kind].join(', ') || 'none'}`);
    }
  }

  if (!partial || has('name')) {
    if (typeof input.name !== 'string' || !INTERCEPTOR_NAME_PATTERN.test(input.name)) problems.add('name', SLUG_RULE);
    else spec.name = input.name;
  }
  if (!partial || has('description')) {
    const description = input.description ?? '';
    if (typeof description !== 'string' || description.length > INTERCEPTOR_LIMITS.description || hasControlCharacters(description, true)) {
      problems.add('description', `must be text of at most ${INTERCEPTOR_LIMITS.description} characters`);
    } else spec.description = description;
  }
  if ((!partial || has('kind')) && kind === undefined) problems.add('kind', `must be one of ${INTERCEPTOR_KINDS.join(', ')}`);
  const phase = checkPhase(input.phase, kind, partial, problems);
  if (phase !== undefined) spec.phase = phase;
  if (!partial || has('order')) {
    const order = input.order ?? 0;
    if (!Number.isInteger(order) || Math.abs(order as number) > INTERCEPTOR_LIMITS.order) {
      problems.add('order', `must be an integer from -${INTERCEPTOR_LIMITS.order} to ${INTERCEPTOR_LIMITS.order}`);
    } else spec.order = (order as number) + 0; // -0 is 0
  }
  if (!partial || has('scope')) {
    const scope = checkScope(input.scope ?? {}, problems);
    if (scope) spec.scope = scope;
  }
  if (!partial || has('onError')) {
    const onError = input.onError ?? 'deny';
    if (onError !== 'deny' && onError !== 'allow') problems.add('onError', 'must be deny (a failing or slow interceptor refuses the call) or allow (the call goes on as if it allowed)');
    else spec.onError = onError;
  }
  if (!partial || has('timeoutMs')) {
    const timeoutMs = input.timeoutMs ?? defaultTimeoutMs(kind);
    const max = maxTimeoutMs(kind);
    if (!Number.isInteger(timeoutMs) || (timeoutMs as number) < 1 || (timeoutMs as number) > max) {
      problems.add('timeoutMs', kind === 'approval' ? `must be an integer from 1 to ${max} (milliseconds the held call waits; at most 7 days)` : `must be an integer from 1 to ${max} (milliseconds)`);
    } else spec.timeoutMs = timeoutMs as number;
  }
  if (!partial || has('enabled')) {
    const enabled = input.enabled ?? true;
    if (typeof enabled !== 'boolean') problems.add('enabled', 'must be true or false');
    else spec.enabled = enabled;
  }

  if (partial) {
    // Each kind field given, by its own kind's rule (a field of another kind than the one given was named above).
    const patterns = { count: 0 };
    for (const field of SETTING_FIELDS) {
      if (!has(field) || (kind !== undefined && !KIND_FIELDS[kind].includes(field))) continue;
      checkSettingField(field, input[field], problems, patterns);
    }
    if (patterns.count > INTERCEPTOR_LIMITS.patterns) problems.add('body', `holds ${patterns.count} patterns; at most ${INTERCEPTOR_LIMITS.patterns} fit in one interceptor`);
    if (kind !== undefined) spec.kind = kind;
    return spec;
  }
  if (kind === undefined) return spec;
  const settings = checkSettings(kind, input, problems);
  if (settings) Object.assign(spec, { kind, settings } as InterceptorSettings);
  return spec;
}

/** The flat form of an interceptor: the REST API's and a file's, every field written. */
export function flatInterceptor(spec: InterceptorSpec): Record<string, unknown> {
  return {
    name: spec.name,
    description: spec.description,
    kind: spec.kind,
    phase: spec.phase,
    order: spec.order,
    scope: spec.scope,
    onError: spec.onError,
    timeoutMs: spec.timeoutMs,
    enabled: spec.enabled,
    ...spec.settings,
  };
}

function isKind(value: unknown): value is InterceptorKind {
  return typeof value === 'string' && (INTERCEPTOR_KINDS as readonly string[]).includes(value);
}

function checkPhase(value: unknown, kind: InterceptorKind | undefined, partial: boolean, problems: ProblemList): InterceptorPhase | undefined {
  const given = value !== undefined && value !== null;
  if (partial && !given) return undefined;
  if (given && (typeof value !== 'string' || !(INTERCEPTOR_PHASES as readonly string[]).includes(value))) {
    problems.add('phase', `must be one of ${INTERCEPTOR_PHASES.join(', ')}`);
    return undefined;
  }
  if (kind === undefined) return given ? (value as InterceptorPhase) : undefined;
  const allowed = KIND_PHASES[kind];
  if (!given) {
    if (allowed.length === 1) return allowed[0];
    problems.add('phase', `is required for a ${kind} interceptor: ${allowed.join(' or ')}`);
    return undefined;
  }
  if (!allowed.includes(value as InterceptorPhase)) {
    problems.add('phase', `must be ${allowed.join(' or ')} for a ${kind} interceptor (${value} given)`);
    return undefined;
  }
  return value as InterceptorPhase;
}

function checkScope(value: unknown, problems: ProblemList): InterceptorScope | undefined {
  if (!isRecord(value)) {
    problems.add('scope', 'must be an object of source, group and tools (empty: every call)');
    return undefined;
  }
  const scope: InterceptorScope = {};
  let ok = true;
  for (const key of Object.keys(value)) {
    if (!SCOPE_FIELDS.includes(key)) {
      problems.add(`scope.${key}`, `is not a known property (${SCOPE_FIELDS.join(', ')})`);
      ok = false;
    }
  }
  if (value.source !== undefined) {
    if (typeof value.source !== 'string' || !SOURCE_NAME_PATTERN.test(value.source)) {
      problems.add('scope.source', `must be a source's name: ${SLUG_RULE.replace('must be ', '')}`);
      ok = false;
    } else scope.source = value.source;
  }
  if (value.group !== undefined) {
    if (typeof value.group !== 'string' || !GROUP_NAME_PATTERN.test(value.group)) {
      problems.add('scope.group', `must be a tool group's name: ${SLUG_RULE.replace('must be ', '')}`);
      ok = false;
    } else scope.group = value.group;
  }
  if (value.tools !== undefined) {
    const tools = toolPatterns(value.tools, 'scope.tools', problems);
    if (tools) scope.tools = tools;
    else ok = false;
  }
  return ok ? scope : undefined;
}

function toolPatterns(value: unknown, path: string, problems: ProblemList): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    problems.add(path, 'must be a non-empty array of qualified tool name patterns');
    return undefined;
  }
  if (value.length > INTERCEPTOR_LIMITS.toolPatterns) {
    problems.add(path, `must hold at most ${INTERCEPTOR_LIMITS.toolPatterns} patterns`);
    return undefined;
  }
  let ok = true;
  value.forEach((pattern, i) => {
    if (typeof pattern !== 'string' || !SCOPE_PATTERN.test(pattern)) {
      problems.add(`${path}[${i}]`, 'must be a qualified tool name pattern: letters, digits, `_ . -` and `*` (any run of characters), 1-200 characters');
      ok = false;
    }
  });
  return ok ? [...new Set(value as string[])] : undefined;
}

/** The kind's settings from the flat input, checked as a whole; undefined when any is wrong. */
function checkSettings(kind: InterceptorKind, input: InterceptorSpecInput, problems: ProblemList): InterceptorSettings['settings'] | undefined {
  const before = problems.all.length;
  const patterns = { count: 0 };
  const fields: Record<string, unknown> = {};
  for (const field of KIND_FIELDS[kind]) {
    const value = input[field];
    if (value === undefined || value === null) continue;
    const checked = checkSettingField(field, value, problems, patterns);
    if (checked !== undefined) define(fields, field, checked);
  }
  const missing = (field: string, why: string) => {
    if (input[field] === undefined || input[field] === null) problems.add(field, why);
  };
  switch (kind) {
    case 'defaults':
    case 'lock':
      missing('arguments', `is required: the argument values ${kind === 'lock' ? 'every call gets' : 'a call that leaves them out gets'}`);
      break;
    case 'deny':
      missing('rules', 'is required: at least one rule');
      break;
    case 'redact': {
      const detect = fields.detect as string[] | undefined;
      const custom = fields.patterns as unknown[] | undefined;
      if (detect !== undefined && detect.length === 0 && (custom === undefined || custom.length === 0)) {
        problems.add('detect', 'leaves no detector: name at least one, give patterns, or leave detect out for all of them');
      }
      break;
    }
    case 'cap':
      if (['maxBytes', 'maxBlocks', 'maxTextLength'].every((field) => input[field] === undefined || input[field] === null)) {
        problems.add('body', 'a cap interceptor needs at least one limit: maxBytes, maxBlocks or maxTextLength');
      }
      break;
    case 'output-schema':
      break;
    case 'webhook':
      missing('url', 'is required: where the call is POSTed');
      missing('signingSecret', 'is required: the name of the stored secret that signs each request');
      break;
    case 'approval':
      missing('approvers', 'is required: the roles or principals that may decide a held call');
      break;
  }
  if (patterns.count > INTERCEPTOR_LIMITS.patterns) problems.add('body', `holds ${patterns.count} patterns; at most ${INTERCEPTOR_LIMITS.patterns} fit in one interceptor`);
  if (problems.all.length > before) return undefined;
  const bytes = Buffer.byteLength(canonicalJson(fields));
  if (bytes > INTERCEPTOR_LIMITS.settingsBytes) {
    problems.add('body', `the ${kind} settings take ${bytes} bytes of JSON; at most ${INTERCEPTOR_LIMITS.settingsBytes}`);
    return undefined;
  }
  return fields as InterceptorSettings['settings'];
}

/** One kind field's value, checked by its kind's rule (the same field means the same in every kind that has it). */
function checkSettingField(field: string, value: unknown, problems: ProblemList, patterns: { count: number }): unknown {
  switch (field) {
    case 'arguments':
      return checkArguments(value, problems);
    case 'rules':
      return checkRules(value, problems, patterns);
    case 'detect':
      return checkDetect(value, problems);
    case 'patterns':
      return checkRedactPatterns(value, problems, patterns);
    case 'maxBytes':
    case 'maxBlocks':
    case 'maxTextLength':
      if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > INTERCEPTOR_LIMITS.capLimit) {
        problems.add(field, `must be a positive integer, at most ${INTERCEPTOR_LIMITS.capLimit}`);
        return undefined;
      }
      return value;
    case 'action':
      if (value !== 'truncate' && value !== 'refuse') {
        problems.add('action', 'must be truncate (cut the result, with a notice the model sees) or refuse (answer an error instead)');
        return undefined;
      }
      return value satisfies CapSettings['action'];
    case 'onMismatch':
      if (value !== 'error' && value !== 'warn') {
        problems.add('onMismatch', 'must be error (a mismatch turns the result into an error) or warn (noted on the record only)');
        return undefined;
      }
      return value;
    case 'url':
      return checkWebhookUrl(value, problems);
    case 'signingSecret':
      return checkSecretName(value, 'signingSecret', problems);
    case 'approvers':
      return checkApprovers(value, problems);
    case 'when':
      return checkWhen(value, problems, patterns);
    case 'notify':
      return checkNotify(value, problems);
    case 'onTimeout':
      if (value !== 'deny') {
        problems.add('onTimeout', 'must be deny: a held call nobody decided in time is refused (APPROVAL_TIMED_OUT)');
        return undefined;
      }
      return value;
    default:
      return undefined;
  }
}

function checkSecretName(value: unknown, path: string, problems: ProblemList): string | undefined {
  if (typeof value !== 'string' || !SECRET_NAME_PATTERN.test(value)) {
    problems.add(path, "must be a stored secret's name (a letter or _, then letters, digits, _ . -; at most 128), not its value");
    return undefined;
  }
  return value;
}

/** A list of principal ids or names (API keys' ids or names, OIDC subjects), at most APPROVAL_LIMITS.approvers. */
function checkPrincipalList(value: unknown, path: string, problems: ProblemList): string[] | undefined {
  if (!Array.isArray(value) || value.length > APPROVAL_LIMITS.approvers) {
    problems.add(path, `must be an array of at most ${APPROVAL_LIMITS.approvers} principal ids or names`);
    return undefined;
  }
  let ok = true;
  value.forEach((item, i) => {
    if (typeof item !== 'string' || item.trim() === '' || item.length > APPROVAL_LIMITS.principal || hasControlCharacters(item)) {
      problems.add(`${path}[${i}]`, `must be a principal's id or name, 1-${APPROVAL_LIMITS.principal} characters`);
      ok = false;
    }
  });
  return ok ? [...new Set(value as string[])] : undefined;
}

function checkApprovers(value: unknown, problems: ProblemList): ApprovalApprovers | undefined {
  if (!isRecord(value)) {
    problems.add('approvers', 'must be an object of roles, principals or both: who may decide a held call');
    return undefined;
  }
  const before = problems.all.length;
  for (const key of Object.keys(value)) if (key !== 'roles' && key !== 'principals') problems.add(`approvers.${key}`, 'is not a known property (roles, principals)');
  const approvers: ApprovalApprovers = {};
  if (value.roles !== undefined) {
    if (!Array.isArray(value.roles)) problems.add('approvers.roles', `must be an array of roles (${ROLES.join(', ')})`);
    else {
      value.roles.forEach((role, i) => {
        if (!isRole(role)) problems.add(`approvers.roles[${i}]`, `must be one of ${ROLES.join(', ')}`);
      });
      approvers.roles = [...new Set(value.roles as string[])];
    }
  }
  if (value.principals !== undefined) {
    const principals = checkPrincipalList(value.principals, 'approvers.principals', problems);
    if (principals) approvers.principals = principals;
  }
  if ((approvers.roles?.length ?? 0) + (approvers.principals?.length ?? 0) === 0 && problems.all.length === before) {
    problems.add('approvers', 'must name at least one role or principal');
  }
  return problems.all.length > before ? undefined : approvers;
}

const WHEN_FIELDS = ['annotations', 'arguments', 'principals'];
const CONDITION_FIELDS = ['argument', ...CONDITIONS];

function checkWhen(value: unknown, problems: ProblemList, patterns: { count: number }): ApprovalSettings['when'] {
  if (!isRecord(value)) {
    problems.add('when', 'must be an object of annotations, arguments and principals (absent: every call in scope is held)');
    return undefined;
  }
  const before = problems.all.length;
  for (const key of Object.keys(value)) if (!WHEN_FIELDS.includes(key)) problems.add(`when.${key}`, `is not a known property (${WHEN_FIELDS.join(', ')})`);
  const when: NonNullable<ApprovalSettings['when']> = {};
  if (value.annotations !== undefined) {
    const annotations = value.annotations;
    if (!isRecord(annotations) || Object.keys(annotations).length === 0) problems.add('when.annotations', 'must be an object of tool annotations and the value each must have (readOnlyHint: false, destructiveHint: true…)');
    else {
      for (const [name, wanted] of Object.entries(annotations)) {
        if (name.length === 0 || name.length > 100 || hasControlCharacters(name)) problems.add(`when.annotations`, `holds an annotation name of ${name.length} characters; 1-100`);
        else if (typeof wanted !== 'boolean') problems.add(`when.annotations.${name}`, 'must be true or false');
      }
      when.annotations = jsonCopy(annotations) as Record<string, boolean>;
    }
  }
  if (value.arguments !== undefined) {
    if (!Array.isArray(value.arguments) || value.arguments.length === 0 || value.arguments.length > APPROVAL_LIMITS.conditions) {
      problems.add('when.arguments', `must be an array of 1-${APPROVAL_LIMITS.conditions} conditions, each {argument, and one of ${CONDITIONS.join(', ')}}`);
    } else {
      when.arguments = value.arguments.map((item, i) => {
        const path = `when.arguments[${i}]`;
        if (!isRecord(item)) {
          problems.add(path, `must be an object: an argument and one of ${CONDITIONS.join(', ')}`);
          return undefined;
        }
        for (const key of Object.keys(item)) if (!CONDITION_FIELDS.includes(key)) problems.add(`${path}.${key}`, `is not a known property (${CONDITION_FIELDS.join(', ')})`);
        const known = Object.fromEntries(Object.entries(item).filter(([key]) => CONDITION_FIELDS.includes(key)));
        if (item.argument === undefined && CONDITIONS.every((condition) => item[condition] === undefined)) problems.add(`${path}.argument`, 'is required: the argument whose value a condition tests');
        // A deny rule's check, its message aside (a rule that comes back is as a deny rule holds it).
        const rule = checkRule({ ...known, message: 'needs approval' }, path, problems, patterns);
        if (!rule) return undefined;
        const { message: _message, ...condition } = rule;
        return condition;
      }) as ApprovalArgumentCondition[];
    }
  }
  if (value.principals !== undefined) {
    const principals = checkPrincipalList(value.principals, 'when.principals', problems);
    if (principals && principals.length === 0) problems.add('when.principals', 'must name at least one principal');
    else if (principals) when.principals = principals;
  }
  return problems.all.length > before ? undefined : when;
}

function checkNotify(value: unknown, problems: ProblemList): ApprovalSettings['notify'] {
  if (!isRecord(value)) {
    problems.add('notify', 'must be an object {url, signingSecret}: where held calls are announced, and the stored secret that signs each announcement');
    return undefined;
  }
  const before = problems.all.length;
  for (const key of Object.keys(value)) if (key !== 'url' && key !== 'signingSecret') problems.add(`notify.${key}`, 'is not a known property (url, signingSecret)');
  if (value.url === undefined) problems.add('notify.url', 'is required: where held calls are announced');
  if (value.signingSecret === undefined) problems.add('notify.signingSecret', 'is required: the name of the stored secret that signs each announcement');
  const url = value.url === undefined ? undefined : checkWebhookUrl(value.url, problems, 'notify.url');
  const signingSecret = value.signingSecret === undefined ? undefined : checkSecretName(value.signingSecret, 'notify.signingSecret', problems);
  return problems.all.length > before || url === undefined || signingSecret === undefined ? undefined : { url, signingSecret };
}

function checkArguments(value: unknown, problems: ProblemList): Record<string, unknown> | undefined {
  const before = problems.all.length;
  const values = checkArgumentValues(value, 'arguments', problems);
  if (!values) return undefined;
  if (Object.keys(value as object).length === 0) problems.add('arguments', 'must hold at least one argument');
  const bytes = Buffer.byteLength(canonicalJson(values));
  if (bytes > GROUP_LIMITS.argumentBytes) problems.add('arguments', `must take at most ${GROUP_LIMITS.argumentBytes} bytes of JSON (${bytes} given)`);
  return problems.all.length > before ? undefined : (jsonCopy(values) as Record<string, unknown>);
}

function checkRules(value: unknown, problems: ProblemList, patterns: { count: number }): DenyRule[] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    problems.add('rules', 'must be a non-empty array of rules');
    return undefined;
  }
  if (value.length > INTERCEPTOR_LIMITS.rules) {
    problems.add('rules', `must hold at most ${INTERCEPTOR_LIMITS.rules} rules`);
    return undefined;
  }
  const before = problems.all.length;
  const rules = value.map((item, i) => checkRule(item, `rules[${i}]`, problems, patterns));
  return problems.all.length > before ? undefined : (rules as DenyRule[]);
}

function checkRule(value: unknown, path: string, problems: ProblemList, patterns: { count: number }): DenyRule | undefined {
  if (!isRecord(value)) {
    problems.add(path, 'must be an object with a message, and tools, an argument and a condition as needed');
    return undefined;
  }
  for (const key of Object.keys(value)) if (!RULE_FIELDS.includes(key)) problems.add(`${path}.${key}`, `is not a known property (${RULE_FIELDS.join(', ')})`);
  const rule: Partial<DenyRule> = {};
  if (value.tools !== undefined) {
    const tools = toolPatterns(value.tools, `${path}.tools`, problems);
    if (tools) rule.tools = tools;
  }
  if (value.argument !== undefined) {
    if (!isArgumentPath(value.argument)) {
      problems.add(`${path}.argument`, `must be an argument's name or a dotted path into one (options.path), 1-${INTERCEPTOR_LIMITS.argumentPath} characters`);
    } else rule.argument = value.argument;
  }
  const conditions = CONDITIONS.filter((condition) => value[condition] !== undefined);
  if (conditions.length > 1) problems.add(path, `must give at most one condition (${conditions.join(', ')} given)`);
  if (conditions.length > 0 && value.argument === undefined) problems.add(`${path}.${conditions[0]}`, 'needs `argument`: the argument whose value it tests');
  if (conditions.length === 0 && value.argument !== undefined) problems.add(`${path}.argument`, `needs a condition on its value (${CONDITIONS.join(', ')})`);
  if (value.equals !== undefined) {
    const bytes = Buffer.byteLength(canonicalJson(value.equals));
    if (bytes > INTERCEPTOR_LIMITS.equalsBytes) problems.add(`${path}.equals`, `must take at most ${INTERCEPTOR_LIMITS.equalsBytes} bytes of JSON (${bytes} given)`);
    else rule.equals = jsonCopy(value.equals);
  }
  if (value.pattern !== undefined) {
    patterns.count++;
    const problem = patternProblem(value.pattern);
    if (problem) problems.add(`${path}.pattern`, problem);
    else rule.pattern = value.pattern as string;
  }
  for (const field of ['pathUnder', 'pathOutside'] as const) {
    const prefix = value[field];
    if (prefix === undefined) continue;
    if (typeof prefix !== 'string' || !prefix.startsWith('/') || prefix.length > INTERCEPTOR_LIMITS.path || hasControlCharacters(prefix)) {
      problems.add(`${path}.${field}`, `must be an absolute path (starting with /), at most ${INTERCEPTOR_LIMITS.path} characters`);
    } else rule[field] = prefix;
  }
  if (value.range !== undefined) {
    const range = checkRange(value.range, `${path}.range`, problems);
    if (range) rule.range = range;
  }
  const message = value.message;
  if (typeof message !== 'string' || message.trim() === '' || message.length > INTERCEPTOR_LIMITS.message || hasControlCharacters(message, true)) {
    problems.add(`${path}.message`, `is required: what the caller is told, 1-${INTERCEPTOR_LIMITS.message} characters`);
  } else rule.message = message;
  // The rule's fields in one order, whatever the input's.
  const ordered: Record<string, unknown> = {};
  for (const field of RULE_FIELDS) if (Object.hasOwn(rule, field)) ordered[field] = rule[field as keyof DenyRule];
  return ordered as unknown as DenyRule;
}

function isArgumentPath(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= INTERCEPTOR_LIMITS.argumentPath &&
    !hasControlCharacters(value) &&
    value.split('.').every((segment) => segment.length > 0)
  );
}

function checkRange(value: unknown, path: string, problems: ProblemList): { min?: number; max?: number } | undefined {
  if (!isRecord(value)) {
    problems.add(path, 'must be an object with min, max or both');
    return undefined;
  }
  const range: { min?: number; max?: number } = {};
  let ok = true;
  for (const key of Object.keys(value)) {
    if (key !== 'min' && key !== 'max') {
      problems.add(`${path}.${key}`, 'is not a known property (min, max)');
      ok = false;
    }
  }
  for (const bound of ['min', 'max'] as const) {
    const given = value[bound];
    if (given === undefined) continue;
    if (typeof given !== 'number' || !Number.isFinite(given)) {
      problems.add(`${path}.${bound}`, 'must be a finite number');
      ok = false;
    } else range[bound] = given + 0;
  }
  if (value.min === undefined && value.max === undefined) {
    problems.add(path, 'must give min, max or both');
    ok = false;
  }
  if (range.min !== undefined && range.max !== undefined && range.min > range.max) {
    problems.add(path, `min (${range.min}) must not be above max (${range.max})`);
    ok = false;
  }
  return ok ? range : undefined;
}

function checkDetect(value: unknown, problems: ProblemList): RedactSettings['detect'] {
  if (!Array.isArray(value)) {
    problems.add('detect', `must be an array of ${REDACTION_KINDS.join(', ')} (absent: all of them)`);
    return undefined;
  }
  let ok = true;
  value.forEach((item, i) => {
    if (typeof item !== 'string' || !REDACTIONS.has(item)) {
      problems.add(`detect[${i}]`, `must be one of ${REDACTION_KINDS.join(', ')}`);
      ok = false;
    }
  });
  return ok ? ([...new Set(value)] as RedactSettings['detect']) : undefined;
}

function checkRedactPatterns(value: unknown, problems: ProblemList, patterns: { count: number }): RedactSettings['patterns'] {
  if (!Array.isArray(value)) {
    problems.add('patterns', 'must be an array of {name, pattern}');
    return undefined;
  }
  if (value.length > INTERCEPTOR_LIMITS.redactPatterns) {
    problems.add('patterns', `must hold at most ${INTERCEPTOR_LIMITS.redactPatterns} patterns`);
    return undefined;
  }
  const before = problems.all.length;
  const out: { name: string; pattern: string }[] = [];
  const names = new Map<string, number>();
  value.forEach((item, i) => {
    const path = `patterns[${i}]`;
    if (!isRecord(item)) {
      problems.add(path, 'must be an object with a name and an RE2 pattern');
      return;
    }
    for (const key of Object.keys(item)) if (key !== 'name' && key !== 'pattern') problems.add(`${path}.${key}`, 'is not a known property (name, pattern)');
    const { name, pattern } = item;
    if (typeof name !== 'string' || !GROUP_NAME_PATTERN.test(name)) problems.add(`${path}.name`, `${SLUG_RULE}; what it finds is masked as [name]`);
    else if (REDACTIONS.has(name)) problems.add(`${path}.name`, `"${name}" is a built-in detector's name: add it to detect instead, or name the pattern otherwise`);
    else if (names.has(name)) problems.add(`${path}.name`, `"${name}" is already the name of patterns[${names.get(name)}]`);
    else names.set(name, i);
    patterns.count++;
    const problem = patternProblem(pattern, true);
    if (problem) problems.add(`${path}.pattern`, problem);
    if (typeof name === 'string' && typeof pattern === 'string') out.push({ name, pattern });
  });
  return problems.all.length > before ? undefined : out;
}

/** Why a pattern cannot be used: RE2 (linear time) must compile it, as ECMAScript syntax; `masking`: it must not match empty text. */
function patternProblem(pattern: unknown, masking = false): string | undefined {
  if (typeof pattern !== 'string' || pattern.length === 0 || pattern.length > INTERCEPTOR_LIMITS.pattern) {
    return `must be a regular expression of 1-${INTERCEPTOR_LIMITS.pattern} characters`;
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (error) {
    return `is not a pattern RE2 takes (linear-time matching: no backreferences or lookaround): ${String((error as Error).message).slice(0, 200)}`;
  }
  if (masking && matchesEmpty(compiled)) return 'matches empty text: a mask needs something to replace';
  return undefined;
}

/** Whether the pattern matches empty text, alone or between characters (`x*`, `^`, `\b`). */
function matchesEmpty(compiled: RE2JS): boolean {
  if (compiled.test('')) return true;
  for (const probe of ['a b', '0_\n-', 'é.']) {
    const matcher = compiled.matcher(probe);
    for (let found = 0; found < 8 && matcher.find(); found++) if (matcher.start() === matcher.end()) return true;
  }
  return false;
}

function checkWebhookUrl(value: unknown, problems: ProblemList, path = 'url'): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > INTERCEPTOR_LIMITS.url) {
    problems.add(path, `must be an http(s) URL of at most ${INTERCEPTOR_LIMITS.url} characters`);
    return undefined;
  }
  const parsed = parseRemoteUrl(value);
  if ('problem' in parsed) {
    problems.add(path, parsed.credentials ? `${parsed.problem}: requests are signed with signingSecret` : parsed.problem);
    return undefined;
  }
  if (maskUrlCredentials(value) !== value) {
    problems.add(path, 'must not carry a credential in its query (token, key, sig…): requests are signed with signingSecret');
    return undefined;
  }
  return value;
}

/** A value as JSON carries it (what is stored and read back): -0 is 0. JSON.parse defines `__proto__` as a member like any other. */
function jsonCopy(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

/** Sets a member by definition, so that a name like `__proto__` is a member like any other. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A change (PATCH) put over a stored interceptor, in the flat form: each field given replaces the
 * stored one, a null one is left out (back to its default; an optional setting removed). A new
 * kind drops the old kind's settings, the phase when the new kind does not run in it, and the
 * timeout when it was the old kind's default.
 */
export function mergeInterceptorChange(current: InterceptorSpec, change: InterceptorSpecInput): InterceptorSpecInput {
  const merged = flatInterceptor(current);
  if (isKind(change.kind) && change.kind !== current.kind) {
    for (const field of KIND_FIELDS[current.kind]) delete merged[field];
    if (!KIND_PHASES[change.kind].includes(current.phase)) delete merged.phase;
    if (current.timeoutMs === commonDefaults(current.kind).timeoutMs || current.timeoutMs > maxTimeoutMs(change.kind)) delete merged.timeoutMs;
  }
  for (const [field, value] of Object.entries(change)) {
    if (value === null) delete merged[field];
    else if (value !== undefined) define(merged, field, value);
  }
  return merged;
}

/** Settings read back from a store that keeps no key order (jsonb), in the order the kind declares its fields, a rule's and a pattern's too. */
export function settingsInOrder(kind: InterceptorKind, stored: Record<string, unknown>): InterceptorSettings['settings'] {
  const inOrder = (value: unknown, fields: readonly string[]) => (isRecord(value) ? Object.fromEntries(fields.filter((field) => Object.hasOwn(value, field)).map((field) => [field, value[field]])) : value);
  const out: Record<string, unknown> = {};
  for (const field of KIND_FIELDS[kind]) {
    const value = stored[field];
    if (value === undefined) continue;
    if (field === 'rules' && Array.isArray(value)) out.rules = value.map((rule) => inOrder(rule, RULE_FIELDS));
    else if (field === 'patterns' && Array.isArray(value)) out.patterns = value.map((pattern) => inOrder(pattern, ['name', 'pattern']));
    else if (field === 'when' && isRecord(value)) {
      const when = inOrder(value, WHEN_FIELDS) as Record<string, unknown>;
      if (Array.isArray(when.arguments)) when.arguments = when.arguments.map((condition) => inOrder(condition, CONDITION_FIELDS));
      out.when = when;
    } else if (field === 'approvers' && isRecord(value)) out.approvers = inOrder(value, ['roles', 'principals']);
    else if (field === 'notify' && isRecord(value)) out.notify = inOrder(value, ['url', 'signingSecret']);
    else out[field] = value;
  }
  return out as InterceptorSettings['settings'];
}
