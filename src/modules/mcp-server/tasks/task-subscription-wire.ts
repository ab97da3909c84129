import { isRecord } from '../../../shared/is-record.js';
import { isTaskIdShape } from './task-wire.js';

/** The task ids one `subscriptions/listen` may follow at most; the others are not acknowledged (their caller polls). */
export const MAX_TASK_IDS_PER_LISTEN = 100;

/**
 * Whether a request is a `subscriptions/listen` asking for task notifications: the tasks
 * extension's `params.notifications.taskIds` (cheap: read on every request).
 */
export function asksForTaskNotifications(body: unknown): body is Record<string, unknown> & { params: Record<string, unknown> & { notifications: Record<string, unknown> } } {
  return isRecord(body) && body.method === 'subscriptions/listen' && isRecord(body.params) && isRecord(body.params.notifications) && 'taskIds' in body.params.notifications;
}

/**
 * The task ids a listen asks for: a problem when `taskIds` is not a list of strings; else each
 * once, in order, only those that can name a task, at most MAX_TASK_IDS_PER_LISTEN.
 */
export function readListenTaskIds(notifications: Record<string, unknown>): { taskIds: string[] } | { problem: string } {
  const asked = notifications.taskIds;
  if (!Array.isArray(asked) || asked.some((id) => typeof id !== 'string')) return { problem: 'params.notifications.taskIds: must be a list of task ids (strings)' };
  const taskIds = [...new Set(asked as string[])].filter(isTaskIdShape).slice(0, MAX_TASK_IDS_PER_LISTEN);
  return { taskIds };
}

/** The listen request as the SDK's handler serves it: the same, without the task ids it does not know. */
export function withoutTaskIds(body: Record<string, unknown> & { params: Record<string, unknown> & { notifications: Record<string, unknown> } }): Record<string, unknown> {
  const { taskIds: _taskIds, ...notifications } = body.params.notifications;
  return { ...body, params: { ...body.params, notifications } };
}

/** Splits a Server-Sent Events byte stream (as text) into whole frames (each without its blank line). */
export class SseFrames {
  private buffered = '';

  push(text: string): string[] {
    this.buffered += text.replace(/\r\n?/g, '\n');
    const frames = this.buffered.split('\n\n');
    this.buffered = frames.pop() ?? '';
    return frames.filter((frame) => frame.length > 0);
  }
}

/** The JSON-RPC message a frame carries in its `data:` lines; undefined for a comment (keep-alive) or what does not parse. */
export function messageOfFrame(frame: string): Record<string, unknown> | undefined {
  const data = frame
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''))
    .join('\n');
  if (data.length === 0) return undefined;
  try {
    const message: unknown = JSON.parse(data);
    return isRecord(message) ? message : undefined;
  } catch {
    return undefined;
  }
}

/** One message as a frame of the stream (with its blank line). */
export function frameOf(message: Record<string, unknown>): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** Whether a message is the SDK's acknowledgement of a subscription. */
export function isAcknowledgement(message: Record<string, unknown> | undefined): message is Record<string, unknown> & { params: Record<string, unknown> } {
  return message?.method === 'notifications/subscriptions/acknowledged' && isRecord(message.params);
}

/** The acknowledgement with the task ids this server agreed to tell of added to what the SDK honored. */
export function acknowledgedWithTaskIds(ack: Record<string, unknown> & { params: Record<string, unknown> }, taskIds: string[]): Record<string, unknown> {
  const notifications = isRecord(ack.params.notifications) ? ack.params.notifications : {};
  return { ...ack, params: { ...ack.params, notifications: { ...notifications, taskIds } } };
}

/** Whether the acknowledgement honors nothing of the SDK's own (the SDK then ends its stream at once). */
export function honorsNothing(ack: Record<string, unknown> & { params: Record<string, unknown> }): boolean {
  return !isRecord(ack.params.notifications) || Object.keys(ack.params.notifications).length === 0;
}

/** Whether a message is the response that ends the subscription `id` (the SDK's graceful close). */
export function isSubscriptionEnd(message: Record<string, unknown> | undefined, id: string | number): boolean {
  return message !== undefined && message.id === id && ('result' in message || 'error' in message);
}
