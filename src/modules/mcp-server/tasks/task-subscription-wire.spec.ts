import fc from 'fast-check';
import {
  acknowledgedWithTaskIds,
  asksForTaskNotifications,
  frameOf,
  honorsNothing,
  isAcknowledgement,
  isSubscriptionEnd,
  MAX_TASK_IDS_PER_LISTEN,
  messageOfFrame,
  readListenTaskIds,
  SseFrames,
  withoutTaskIds,
} from './task-subscription-wire.js';
import { isTaskIdShape } from './task-wire.js';

const T1 = '0190f5a8-1c2b-7d3e-8f40-123456789abc';
const T2 = '0190f5a8-1c2b-7d3e-8f40-123456789abd';

const listen = (notifications: unknown) => ({ jsonrpc: '2.0', id: 'l1', method: 'subscriptions/listen', params: { notifications, _meta: { k: 1 } } });

describe('asksForTaskNotifications', () => {
  it('recognises a listen whose filter names task ids, and nothing else', () => {
    expect(asksForTaskNotifications(listen({ taskIds: [T1] }))).toBe(true);
    expect(asksForTaskNotifications(listen({ taskIds: 'x' }))).toBe(true);
    expect(asksForTaskNotifications(listen({ toolsListChanged: true }))).toBe(false);
    expect(asksForTaskNotifications({ ...listen({ taskIds: [T1] }), method: 'tools/list' })).toBe(false);
    expect(asksForTaskNotifications({ method: 'subscriptions/listen' })).toBe(false);
    expect(asksForTaskNotifications(null)).toBe(false);
  });
});

describe('readListenTaskIds', () => {
  it('keeps each task id once, in order, only those that can name a task', () => {
    expect(readListenTaskIds({ taskIds: [T2, T1, T2, 'nope', `${T1}x`] })).toEqual({ taskIds: [T2, T1] });
    expect(readListenTaskIds({ taskIds: [] })).toEqual({ taskIds: [] });
  });

  it('is a problem when task ids are not a list of strings', () => {
    for (const taskIds of [undefined, T1, [T1, 7], {}, [null]]) expect(readListenTaskIds({ taskIds })).toHaveProperty('problem');
  });

  it('never keeps more than the bound, nor anything that is not a task id, whatever is sent', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.oneof(fc.uuid(), fc.string()), { maxLength: 300 }), (any, list) => {
        for (const asked of [any, list]) {
          const read = readListenTaskIds({ taskIds: asked });
          if ('problem' in read) continue;
          expect(read.taskIds.length).toBeLessThanOrEqual(MAX_TASK_IDS_PER_LISTEN);
          expect(new Set(read.taskIds).size).toBe(read.taskIds.length);
          expect(read.taskIds.every(isTaskIdShape)).toBe(true);
        }
      }),
    );
  });
});

describe('withoutTaskIds', () => {
  it('leaves the rest of the listen as it was', () => {
    const body = listen({ taskIds: [T1], toolsListChanged: true });
    expect(withoutTaskIds(body as never)).toEqual(listen({ toolsListChanged: true }));
    expect(body.params.notifications).toEqual({ taskIds: [T1], toolsListChanged: true });
  });
});

describe('SseFrames', () => {
  it('gives whole frames, however the stream is cut, CRLF or not', () => {
    const frames = new SseFrames();
    expect(frames.push('event: message\r\ndata: {"a":')).toEqual([]);
    expect(frames.push('1}\r\n\r\n: keepalive\n')).toEqual(['event: message\ndata: {"a":1}']);
    expect(frames.push('\nevent: message\ndata: {}\n\n')).toEqual([': keepalive', 'event: message\ndata: {}']);
  });

  it('gives the same frames for any cut of the same bytes', () => {
    const message = fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
    fc.assert(
      fc.property(fc.array(message, { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 10 }), (messages, cuts) => {
        const text = messages.map((m) => frameOf(m)).join('');
        const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const frames = new SseFrames();
        const got: string[] = [];
        let from = 0;
        for (const cut of [...at, text.length]) {
          got.push(...frames.push(text.slice(from, cut)));
          from = cut;
        }
        // As JSON carries them: a -0 the generator made is written, and read back, as 0.
        expect(got.map(messageOfFrame)).toEqual(messages.map((m) => JSON.parse(JSON.stringify(m))));
      }),
    );
  });
});

describe('messageOfFrame', () => {
  it('reads the message of a frame; nothing of a comment or of data that is not a JSON object', () => {
    expect(messageOfFrame('event: message\ndata: {"id":1}')).toEqual({ id: 1 });
    expect(messageOfFrame('data:{"id":1}')).toEqual({ id: 1 });
    expect(messageOfFrame(': keepalive')).toBeUndefined();
    expect(messageOfFrame('data: [1]')).toBeUndefined();
    expect(messageOfFrame('data: {')).toBeUndefined();
  });
});

describe('acknowledgements', () => {
  const ack = { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { toolsListChanged: true }, _meta: { s: 'l1' } } };

  it('gain the task ids agreed to beside what the SDK honored', () => {
    expect(isAcknowledgement(ack)).toBe(true);
    expect(isAcknowledgement({ method: 'notifications/tasks', params: {} })).toBe(false);
    expect(acknowledgedWithTaskIds(ack, [T1])).toEqual({ ...ack, params: { notifications: { toolsListChanged: true, taskIds: [T1] }, _meta: { s: 'l1' } } });
    expect(honorsNothing(ack)).toBe(false);
    expect(honorsNothing({ ...ack, params: { notifications: {} } })).toBe(true);
  });

  it('tell the end of the subscription by its id', () => {
    expect(isSubscriptionEnd({ jsonrpc: '2.0', id: 'l1', result: {} }, 'l1')).toBe(true);
    expect(isSubscriptionEnd({ jsonrpc: '2.0', id: 'l2', result: {} }, 'l1')).toBe(false);
    expect(isSubscriptionEnd({ jsonrpc: '2.0', method: 'notifications/tasks' }, 'l1')).toBe(false);
    expect(isSubscriptionEnd(undefined, 'l1')).toBe(false);
  });
});
