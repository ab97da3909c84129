import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StartedCallJournal, type StartedCallEntry } from './started-call-journal.js';

const entry = (id: string): StartedCallEntry => ({ id, startedAt: '2026-11-25T09:00:00.000Z', record: JSON.stringify({ qualified_name: 't__x', arguments: { id } }) });

describe('StartedCallJournal', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'journal-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const files = () => readdirSync(dir).filter((name) => name.endsWith('.jsonl'));

  it('keeps unsettled calls for the next run, and only those of earlier runs are read', () => {
    const earlier = new StartedCallJournal(dir);
    earlier.append(entry('a'));
    earlier.append(entry('b'));
    earlier.settle('a');
    // Killed here: nothing closed. The next run finds b (and a: its outcome is in the history, the sweep drops it).
    const next = new StartedCallJournal(dir);
    next.append(entry('c'));
    const found = next.earlierEntries();
    expect(found.entries.map((e) => e.id)).toEqual(['a', 'b']);
    expect(found.entries[1]).toEqual(entry('b'));
    expect(found.files).toHaveLength(1);
    for (const file of found.files) next.remove(file);
    expect(files()).toHaveLength(1);
  });

  it('deletes a file once it is closed and every call in it settled, keeps it otherwise', () => {
    const journal = new StartedCallJournal(dir);
    journal.append(entry('a'));
    journal.settle('a');
    journal.close();
    expect(files()).toEqual([]);
    const other = new StartedCallJournal(dir);
    other.append(entry('b'));
    other.close();
    expect(files()).toHaveLength(1);
  });

  it('rotates files by size and deletes a rotated file when its last call settles', () => {
    const journal = new StartedCallJournal(dir, 200);
    for (const id of ['a', 'b', 'c', 'd']) journal.append(entry(id));
    expect(files().length).toBeGreaterThan(1);
    for (const id of ['a', 'b', 'c']) journal.settle(id);
    // Only the current file (holding d) is left.
    expect(files()).toHaveLength(1);
    journal.settle('d');
    journal.close();
    expect(files()).toEqual([]);
  });

  it('skips a torn last line and anything that is not an entry', () => {
    const earlier = new StartedCallJournal(dir);
    earlier.append(entry('a'));
    const [file] = files();
    appendFileSync(join(dir, file!), '{"id":"b","startedAt":"2026-11-25T09:0');
    appendFileSync(join(dir, file!), '\n[1,2]\n{"id":3}\n');
    expect(new StartedCallJournal(dir).earlierEntries().entries.map((e) => e.id)).toEqual(['a']);
  });
});
