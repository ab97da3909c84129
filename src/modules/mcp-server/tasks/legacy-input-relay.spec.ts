import fc from 'fast-check';
import type { TaskState } from '../../executions/application/task-state.js';
import { aTask } from '../../executions/testing/builders.js';
import { inputRequestId, inputRequestMessage, legacyResultStream, readInputAnswer } from './legacy-input-relay.js';

const TASK = '01a2247c-593b-7a3e-a3af-8452acefe89f';
const KEY = 'e4e3aa9f-843a-42e5-acdd-3e872235d7c0';
const OTHER = '4d31ce46-5f00-433a-a9bf-97822b63679f';
const CONFIRM = { method: 'elicitation/create' as const, params: { message: 'Delete it?', _meta: { 'vendor/x': 1 } } };

function waiting(open: Record<string, typeof CONFIRM>): TaskState {
  const task = aTask({ id: TASK, status: 'awaiting_input', inputRequests: open });
  return { task, record: undefined, status: 'awaiting_input', final: false };
}

async function read(stream: ReadableStream<Uint8Array>): Promise<Record<string, unknown>[]> {
  const text = await new Response(stream).text();
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('event: message'))
    .map((frame) => JSON.parse(frame.split('\n')[1]!.slice('data: '.length)) as Record<string, unknown>);
}

describe('the 2025-11-25 input relay', () => {
  it('reads an answer to its own requests only: the task and key from the id, the result, or null for an error', () => {
    const id = inputRequestId(TASK, KEY);
    expect(readInputAnswer({ jsonrpc: '2.0', id, result: { action: 'accept' } })).toEqual({ taskId: TASK, key: KEY, result: { action: 'accept' } });
    expect(readInputAnswer({ jsonrpc: '2.0', id, error: { code: -1, message: 'no' } })).toEqual({ taskId: TASK, key: KEY, result: null });
    expect(readInputAnswer({ jsonrpc: '2.0', id, method: 'tools/call' })).toBeUndefined();
    expect(readInputAnswer({ jsonrpc: '2.0', id: 7, result: {} })).toBeUndefined();
    expect(readInputAnswer({ jsonrpc: '2.0', id: `${id}x`, result: {} })).toBeUndefined();
    expect(readInputAnswer({ jsonrpc: '2.0', id, result: 'yes' })).toBeUndefined();
  });

  it('never throws on foreign messages, and takes only ids it could have made', () => {
    fc.assert(
      fc.property(fc.anything(), fc.string(), (result, id) => {
        const read = readInputAnswer({ jsonrpc: '2.0', id, result });
        if (read) expect(inputRequestId(read.taskId, read.key)).toBe(id);
        expect(() => readInputAnswer(result)).not.toThrow();
      }),
    );
  });

  it("puts the request with the related task added to its own _meta, under an id naming the task and key", () => {
    expect(inputRequestMessage(TASK, KEY, CONFIRM)).toEqual({
      jsonrpc: '2.0',
      id: inputRequestId(TASK, KEY),
      method: 'elicitation/create',
      params: { message: 'Delete it?', _meta: { 'vendor/x': 1, 'io.modelcontextprotocol/related-task': { taskId: TASK } } },
    });
  });

  it('streams each open request once, then the final answer, and ends', async () => {
    const ended: TaskState = { ...waiting({}), status: 'succeeded', final: true };
    const states = (async function* () {
      yield waiting({ [KEY]: CONFIRM });
      yield waiting({ [KEY]: CONFIRM, [OTHER]: CONFIRM });
      yield { ...waiting({}), status: 'working' } as TaskState;
      yield ended;
    })();
    const messages = await read(legacyResultStream(TASK, states, async (state) => ({ jsonrpc: '2.0', id: 9, result: { final: state.final } })));
    expect(messages.map((message) => message.id)).toEqual([inputRequestId(TASK, KEY), inputRequestId(TASK, OTHER), 9]);
    expect(messages[2]).toEqual({ jsonrpc: '2.0', id: 9, result: { final: true } });
  });

  it('ends without an answer when the states end early (the caller left)', async () => {
    const states = (async function* () {
      yield waiting({ [KEY]: CONFIRM });
    })();
    const messages = await read(legacyResultStream(TASK, states, async () => ({ never: true })));
    expect(messages.map((message) => message.id)).toEqual([inputRequestId(TASK, KEY)]);
  });
});
