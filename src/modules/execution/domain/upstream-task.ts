import type { TaskSupport } from '../../inventory/domain/tool-definition.js';

/**
 * Whether a call goes upstream as a task: always for a tool that must run as one, when the caller
 * asked for a task for a tool that may, never otherwise.
 */
export function runsAsUpstreamTask(support: TaskSupport, askedForTask: boolean): boolean {
  return support === 'required' || (support === 'optional' && askedForTask);
}

/** Whether a call is offered to its upstream as a task: its tool must run as one, or its caller asked for one (see UpstreamTaskRequest.declared). */
export function offeredAsUpstreamTask(support: TaskSupport, askedForTask: boolean): boolean {
  return support === 'required' || askedForTask;
}
