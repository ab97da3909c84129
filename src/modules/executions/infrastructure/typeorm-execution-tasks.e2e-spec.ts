import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { adminQuery, migratedDataSource, testServerUrl, withDatabase } from '../../../../test/helpers/test-database.js';
import { timeOrderedId } from '../../../shared/time-ordered-id.js';
import type { ExecutionTask } from '../domain/execution-task.js';
import { TypeormExecutionTasks } from './typeorm-execution-tasks.js';
import { aTask } from '../testing/builders.js';

function aLabTask(overrides: Partial<ExecutionTask> = {}): ExecutionTask {
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  return aTask({ id: timeOrderedId(), principalId: 'key-alice', principalName: 'alice', qualifiedName: 'lab__research', channel: 'mcp', createdAt: now, ttlMs: 3_600_000, ...overrides });
}

describe('execution tasks in PostgreSQL (the test server)', () => {
  const dbName = `tp_tasks_${randomBytes(4).toString('hex')}`;
  // Two connection pools stand for two Toolplane processes.
  let one: DataSource;
  let two: DataSource;

  beforeAll(async () => {
    await adminQuery(`CREATE DATABASE ${dbName}`);
    const url = withDatabase(testServerUrl(), dbName);
    // Every migration: later ones alter the tasks' table and the approvals' beside it.
    one = await migratedDataSource(url, { extra: { max: 4 } });
    two = await new DataSource({ type: 'postgres', url, extra: { max: 4 } }).initialize();
  });

  afterAll(async () => {
    await one?.destroy();
    await two?.destroy();
    await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  it('keeps what a task waiting for input asks, and answers left by another process until they are taken once', async () => {
    const here = new TypeormExecutionTasks(one);
    const there = new TypeormExecutionTasks(two);
    const task = aLabTask();
    await here.create(task);
    const asked = { k1: { method: 'elicitation/create', params: { message: 'Delete "x"?\u2028', requestedSchema: { type: 'object' } } } };
    await here.update(task.id, { status: 'awaiting_input', inputRequests: asked });
    expect(await there.get(task.id)).toMatchObject({ status: 'awaiting_input', inputRequests: asked });

    expect(await here.takeInputResponses(task.id)).toBeUndefined();
    await there.putInputResponses(task.id, { k1: { action: 'accept', content: { confirm: true } } });
    // The answered request is no longer open for anyone who reads the task next.
    expect(await here.get(task.id)).toMatchObject({ status: 'working', inputRequests: null });
    await there.putInputResponses(task.id, { k2: { action: 'decline' } });
    const [first, second] = await Promise.all([here.takeInputResponses(task.id), there.takeInputResponses(task.id)]);
    expect([first, second].filter(Boolean)).toEqual([{ k1: { action: 'accept', content: { confirm: true } }, k2: { action: 'decline' } }]);
    expect(await here.takeInputResponses(task.id)).toBeUndefined();

    await here.update(task.id, { status: 'working', inputRequests: null });
    expect(await there.get(task.id)).toMatchObject({ status: 'working', inputRequests: null });
    await expect(one.query(`UPDATE execution_tasks SET status = 'asleep' WHERE id = $1`, [task.id])).rejects.toThrow(/check/);
  });

  it('stores a task once, and another process reads, updates and cancels it', async () => {
    const here = new TypeormExecutionTasks(one);
    const there = new TypeormExecutionTasks(two);
    const task = aLabTask();
    await here.create(task);
    await here.create({ ...task, status: 'pending_approval', principalId: 'key-mallory' });
    expect(await there.get(task.id)).toEqual(task);

    await there.update(task.id, { status: 'pending_approval', statusMessage: 'Waiting for approval.', approvalId: '00000000-0000-4000-a000-000000000001', upstreamTaskId: 'up-1' });
    await there.requestCancel(task.id);
    const updated = await here.get(task.id);
    expect(updated).toMatchObject({ status: 'pending_approval', statusMessage: 'Waiting for approval.', approvalId: '00000000-0000-4000-a000-000000000001', upstreamTaskId: 'up-1', cancelRequested: true });
    expect(updated!.updatedAt.getTime()).toBeGreaterThanOrEqual(task.updatedAt.getTime());
    expect(await here.get(timeOrderedId())).toBeUndefined();
  });

  it('refuses a status that is not a waiting one', async () => {
    await expect(new TypeormExecutionTasks(one).create(aLabTask({ status: 'succeeded' as ExecutionTask['status'] }))).rejects.toThrow(/check/i);
  });

  it("lists one principal's tasks, newest first, page after page", async () => {
    const tasks = new TypeormExecutionTasks(one);
    const mine: ExecutionTask[] = [];
    for (let i = 0; i < 5; i++) {
      const task = aLabTask({ principalId: 'key-lister', ttlMs: null });
      mine.push(task);
      await tasks.create(task);
      await tasks.create(aLabTask({ principalId: 'key-other' }));
    }
    const newestFirst = mine.map((task) => task.id).reverse();
    const first = await tasks.listByPrincipal('key-lister', undefined, 3);
    const second = await tasks.listByPrincipal('key-lister', first.at(-1)!.id, 3);
    expect([...first, ...second].map((task) => task.id)).toEqual(newestFirst);
    expect(second[0]!.ttlMs).toBeNull();
  });

  it('forgets the tasks whose ttl passed, and keeps those without one', async () => {
    const tasks = new TypeormExecutionTasks(one);
    const old = new Date(Date.now() - 10_000);
    const expired = aLabTask({ principalId: 'key-ttl', createdAt: old, ttlMs: 5_000 });
    const live = aLabTask({ principalId: 'key-ttl', createdAt: old, ttlMs: 60_000 });
    const kept = aLabTask({ principalId: 'key-ttl', createdAt: old, ttlMs: null });
    for (const task of [expired, live, kept]) await tasks.create(task);
    expect(await tasks.removeExpired(new Date())).toBeGreaterThanOrEqual(1);
    expect(await tasks.get(expired.id)).toBeUndefined();
    expect(await tasks.get(live.id)).toBeDefined();
    expect(await tasks.get(kept.id)).toBeDefined();
  });
});
