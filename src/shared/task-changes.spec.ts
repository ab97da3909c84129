import { TaskChanges } from './task-changes.js';

describe('TaskChanges', () => {
  it("wakes a task's followers at each change of it, and those of no other task", () => {
    const changes = new TaskChanges();
    const woken: string[] = [];
    changes.onChange('t1', () => woken.push('a'));
    changes.onChange('t1', () => woken.push('b'));
    changes.onChange('t2', () => woken.push('c'));
    changes.announce('t1');
    changes.heard('t1');
    expect(woken).toEqual(['a', 'b', 'a', 'b']);
  });

  it('wakes every follower when changes may have been missed', () => {
    const changes = new TaskChanges();
    const woken: string[] = [];
    changes.onChange('t1', () => woken.push('t1'));
    changes.onChange('t2', () => woken.push('t2'));
    changes.heardAll();
    expect(woken.sort()).toEqual(['t1', 't2']);
  });

  it('lets go of a follower that stops (idempotently), and keeps nothing for a task nobody follows', () => {
    const changes = new TaskChanges();
    let woken = 0;
    const stop = changes.onChange('t1', () => woken++);
    const other = changes.onChange('t1', () => undefined);
    stop();
    stop();
    changes.announce('t1');
    expect(woken).toBe(0);
    expect(changes.followedCount).toBe(1);
    other();
    expect(changes.followedCount).toBe(0);
  });

  it('lets a follower stop while it is woken without skipping the others', () => {
    const changes = new TaskChanges();
    const woken: string[] = [];
    const stop = changes.onChange('t1', () => (woken.push('a'), stop()));
    changes.onChange('t1', () => woken.push('b'));
    changes.announce('t1');
    changes.announce('t1');
    expect(woken).toEqual(['a', 'b', 'b']);
  });
});
