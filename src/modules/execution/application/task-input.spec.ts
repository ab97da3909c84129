import { InMemoryExecutionTasks } from '../../executions/testing/in-memory-execution-tasks.js';
import { inputResponsesProblem, MAX_PENDING_INPUT, PendingInput } from './task-input.js';
import { aTask } from '../../executions/testing/builders.js';

const ID = '01a2225f-da5a-726d-aeab-e1e42fe89bf9';
const CONFIRM = { method: 'elicitation/create' as const, params: { message: 'Delete it?', requestedSchema: { type: 'object', properties: {} } } };
const NAME = { method: 'elicitation/create' as const, params: { message: 'Your name?' } };

async function taskRows(): Promise<InMemoryExecutionTasks> {
  const tasks = new InMemoryExecutionTasks();
  await tasks.create(aTask({ id: ID, principalId: 'p', principalName: 'p', qualifiedName: 'files__delete', channel: 'mcp' }));
  return tasks;
}

describe('PendingInput', () => {
  it('tells after each row write, once the row says what is open, so followers look again', async () => {
    const tasks = await taskRows();
    const seen: (string | undefined)[] = [];
    const input = new PendingInput(ID, tasks, () => seen.push(tasks.rows.get(ID)?.status));
    void input.ask(CONFIRM);
    await input.written();
    input.answer({ [Object.keys(tasks.rows.get(ID)!.inputRequests!)[0]!]: { action: 'accept' } });
    await input.written();
    expect(seen).toEqual(['awaiting_input', 'working']);
  });

  it('keeps each open request on the row under a key of its own, awaiting_input until every one is answered', async () => {
    const tasks = await taskRows();
    const input = new PendingInput(ID, tasks);
    const first = input.ask(CONFIRM);
    const second = input.ask(NAME);
    await input.persist();
    const waiting = tasks.rows.get(ID)!;
    expect(waiting.status).toBe('awaiting_input');
    const keys = Object.keys(waiting.inputRequests!);
    expect(keys).toHaveLength(2);
    expect(Object.values(waiting.inputRequests!)).toEqual([CONFIRM, NAME]);

    // A partial answer: the answered key leaves, the task still waits.
    expect(input.answer({ [keys[0]!]: { action: 'accept', content: { confirm: true } }, unknown: { ignored: true } })).toBe(1);
    await expect(first).resolves.toEqual({ action: 'accept', content: { confirm: true } });
    await input.persist();
    expect(tasks.rows.get(ID)).toMatchObject({ status: 'awaiting_input', inputRequests: { [keys[1]!]: NAME } });

    expect(input.answer({ [keys[1]!]: { action: 'decline' } })).toBe(1);
    await expect(second).resolves.toEqual({ action: 'decline' });
    await input.persist();
    expect(tasks.rows.get(ID)).toMatchObject({ status: 'working', inputRequests: null });
  });

  it('takes no answer that is not an object, and no key twice', async () => {
    const tasks = await taskRows();
    const input = new PendingInput(ID, tasks);
    const asked = input.ask(CONFIRM);
    await input.persist();
    const [key] = Object.keys(tasks.rows.get(ID)!.inputRequests!);
    expect(input.answer({ [key!]: 'yes' })).toBe(0);
    expect(input.answer({ [key!]: { action: 'accept' } })).toBe(1);
    expect(input.answer({ [key!]: { action: 'accept' } })).toBe(0);
    await expect(asked).resolves.toEqual({ action: 'accept' });
  });

  it('fails every open request when the task ends, and refuses new ones', async () => {
    const input = new PendingInput(ID, await taskRows());
    const asked = input.ask(CONFIRM);
    const ended = new DOMException('The task was cancelled.', 'AbortError');
    input.close(ended);
    await expect(asked).rejects.toBe(ended);
    await expect(input.ask(NAME)).rejects.toBe(ended);
    expect(input.size).toBe(0);
  });

  it(`refuses more than ${MAX_PENDING_INPUT} open requests at once`, async () => {
    const input = new PendingInput(ID, await taskRows());
    const open = Array.from({ length: MAX_PENDING_INPUT }, () => input.ask(NAME).catch((reason: unknown) => reason));
    await expect(input.ask(NAME)).rejects.toThrow(/at most 16/);
    const done = new Error('done');
    input.close(done);
    expect(await Promise.all(open)).toEqual(open.map(() => done));
  });
});

describe('inputResponsesProblem', () => {
  it('accepts a map of answers, an empty one included', () => {
    expect(inputResponsesProblem({})).toBeUndefined();
    expect(inputResponsesProblem({ a: { action: 'accept', content: { confirm: true } } })).toBeUndefined();
  });

  it.each([
    ['nothing', undefined, /must be an object/],
    ['null', null, /must be an object/],
    ['an array', [{ action: 'accept' }], /must be an object/],
    ['an answer that is a number', { a: 12345 }, /inputResponses\.a: must be an object/],
    ['too many answers', Object.fromEntries(Array.from({ length: MAX_PENDING_INPUT * 4 + 1 }, (_, i) => [`k${i}`, {}])), /at most/],
  ])('names the problem with %s', (_label, responses, problem) => {
    expect(inputResponsesProblem(responses)).toMatch(problem);
  });
});
