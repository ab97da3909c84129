import { matches } from '../../access/domain/tool-scope.js';
import type { InterceptorScope } from './interceptor.js';

/** Where a call goes: its tool's source, the group it came through (null: none) and the tool's qualified name. */
export interface ScopedCall {
  source: string;
  group: string | null;
  tool: string;
}

/**
 * Why an interceptor's scope leaves a call out (the first field that does not match), or
 * undefined when every field given matches. A scope with a group applies only to calls made
 * through that group.
 */
export function outOfScope(scope: InterceptorScope, call: ScopedCall): string | undefined {
  if (scope.source !== undefined && scope.source !== call.source) return `its scope is source "${scope.source}"; ${call.tool} is a tool of "${call.source}"`;
  if (scope.group !== undefined && scope.group !== call.group) {
    return `its scope is group "${scope.group}"; the call comes ${call.group === null ? 'through no group' : `through group "${call.group}"`}`;
  }
  if (scope.tools !== undefined && !scope.tools.some((pattern) => matches(pattern, call.tool))) return `none of its tool patterns (${scope.tools.join(', ')}) matches ${call.tool}`;
  return undefined;
}
