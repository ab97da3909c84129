import type { ArgumentValuesSettings, InterceptorSpec } from '../interceptor.js';

/**
 * Whether a call leaves an argument out: not given, or given as null, as an OpenAI strict-mode
 * client sends what it leaves out (a group's defaults read it the same way).
 */
export function leftOut(args: Readonly<Record<string, unknown>>, name: string): boolean {
  return !Object.hasOwn(args, name) || args[name] === null;
}

/** A copy of the arguments with `values` set; names such as `__proto__` stay own properties. */
export function withValues(args: Readonly<Record<string, unknown>>, values: ReadonlyMap<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) define(copy, name, value);
  for (const [name, value] of values) define(copy, name, value);
  return copy;
}

/** The settings of a `defaults` or `lock` interceptor. */
export function argumentValues(interceptor: InterceptorSpec, kind: 'defaults' | 'lock'): ArgumentValuesSettings {
  if (interceptor.kind !== kind) throw new Error(`the ${kind} engine was given a ${interceptor.kind} interceptor`);
  return interceptor.settings;
}

function define(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}
