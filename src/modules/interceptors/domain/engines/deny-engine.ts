import { matches } from '../../../access/domain/tool-scope.js';
import { sameJson } from '../../../../shared/canonical-json.js';
import { compileLinear } from '../../../../shared/json-schema/linear-regexp.js';
import type { InterceptedCall, InterceptorEngine, InterceptorVerdict } from '../intercepted-call.js';
import type { DenyRule, InterceptorPhase, InterceptorSpec } from '../interceptor.js';
import { valueAt } from './argument-path.js';
import { isUnder, normalisePath, suspiciousPath } from './posix-path.js';

/** Why a rule's condition denies a value (the detail's message), or undefined when it does not. */
type Condition = (value: unknown) => string | undefined;

export interface CompiledRule {
  rule: DenyRule;
  segments?: string[];
  conditions: Condition[];
}

/**
 * `deny`: refuses a call by the first of its rules that matches. A rule matches a call to a tool it
 * names (every tool when it names none) and, when it names an argument, whose value meets every
 * condition given. An argument the call does not give is not judged (a `defaults` or `lock`
 * interceptor before this one gives it a value); an argument rule without a condition denies any
 * value given. Rules are compiled once per interceptor (patterns in RE2: linear time).
 */
export class DenyEngine implements InterceptorEngine {
  readonly kind = 'deny';
  private readonly compiled = new WeakMap<InterceptorSpec, CompiledRule[]>();

  run(interceptor: InterceptorSpec, _phase: InterceptorPhase, call: InterceptedCall): InterceptorVerdict {
    for (const compiled of this.rulesOf(interceptor)) {
      const { rule, segments } = compiled;
      if (rule.tools !== undefined && !rule.tools.some((pattern) => matches(pattern, call.tool.qualifiedName))) continue;
      if (segments === undefined) return { decision: 'deny', message: rule.message };
      const reason = argumentMeets(compiled, call.arguments);
      if (reason !== undefined) return { decision: 'deny', message: rule.message, details: [{ path: `arguments.${rule.argument!}`, message: reason }] };
    }
    return { decision: 'allow' };
  }

  private rulesOf(interceptor: InterceptorSpec): CompiledRule[] {
    let rules = this.compiled.get(interceptor);
    if (!rules) {
      if (interceptor.kind !== 'deny') throw new Error(`the deny engine was given a ${interceptor.kind} interceptor`);
      rules = interceptor.settings.rules.map(compileRule);
      this.compiled.set(interceptor, rules);
    }
    return rules;
  }
}

/**
 * Why the rule's argument meets its condition (the detail's message), or undefined when it does
 * not, or the call does not give the argument. A rule without an argument meets nothing here.
 */
export function argumentMeets({ segments, conditions, rule }: CompiledRule, args: Readonly<Record<string, unknown>>): string | undefined {
  if (segments === undefined) return undefined;
  const value = valueAt(args, segments);
  if (value === undefined) return undefined;
  let reason: string | undefined = rule.message;
  for (const condition of conditions) {
    reason = condition(value);
    if (reason === undefined) break;
  }
  return reason;
}

/** A rule's conditions, compiled once (patterns in RE2). */
export function compileRule(rule: DenyRule): CompiledRule {
  const conditions: Condition[] = [];
  const { message } = rule;
  if (rule.equals !== undefined) {
    const denied = rule.equals;
    conditions.push((value) => (sameJson(value, denied) ? message : undefined));
  }
  if (rule.pattern !== undefined) {
    const pattern = compileLinear(rule.pattern);
    conditions.push((value) => (typeof value === 'string' && pattern.test(value) ? message : undefined));
  }
  if (rule.pathUnder !== undefined) {
    const prefix = normalisePath(rule.pathUnder);
    conditions.push((value) => pathCheck(value) ?? (isUnder(normalisePath(value as string), prefix) ? message : undefined));
  }
  if (rule.pathOutside !== undefined) {
    const prefix = normalisePath(rule.pathOutside);
    conditions.push((value) => pathCheck(value) ?? (isUnder(normalisePath(value as string), prefix) ? undefined : message));
  }
  if (rule.range !== undefined) {
    const { min = -Infinity, max = Infinity } = rule.range;
    conditions.push((value) => {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'is not a number';
      return value < min || value > max ? message : undefined;
    });
  }
  return { rule, ...(rule.argument === undefined ? {} : { segments: rule.argument.split('.') }), conditions };
}

/** A path rule denies what it cannot judge by the text: a value that is no string, or a suspicious one. */
function pathCheck(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'is not a path (a string)';
  return suspiciousPath(value);
}
