import { may, type Principal } from '../../../shared/principal/principal.js';
import { executionNotFound, type ShownExecution } from '../application/execution-view.js';

/**
 * The execution as `principal` may see it: its own calls, or any with executions:read-all (another
 * principal's call is not there, as far as this one can tell); the stored arguments and results
 * only with executions:payloads (auditors see who called what, not what was sent).
 */
export function shownTo<T extends ShownExecution>(principal: Principal, execution: T): T {
  if (!may(principal, 'executions:read-all') && execution.caller.principalId !== principal.id) throw executionNotFound(execution.id);
  return withPayloadsFor(principal, execution);
}

export function withPayloadsFor<T extends ShownExecution>(principal: Principal, execution: T): T {
  return may(principal, 'executions:payloads') ? execution : { ...execution, arguments: null, result: null };
}
