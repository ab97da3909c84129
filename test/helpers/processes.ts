import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * An extra argument every plugin a test file starts carries (servers ignore it), so leak checks
 * see only this file's processes, not those of suites running in the other jest worker.
 */
export const SUITE_TAG = `toolplane-suite-${randomUUID()}`;

/** Command lines of live processes whose arguments mention one of `needles`. */
export function processesMatching(...needles: string[]): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/^\d+\s+Z/.test(line)) // zombies are already dead
    .filter((line) => needles.some((n) => line.includes(n)))
    .filter((line) => !line.includes(' ps -eo'));
}

/** Waits until no process matches, or fails listing the ones left. */
export async function expectNoProcesses(needles: string[], withinMs = 5000): Promise<void> {
  const deadline = Date.now() + withinMs;
  let left = processesMatching(...needles);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    left = processesMatching(...needles);
  }
  if (left.length > 0) throw new Error(`processes left behind:\n${left.join('\n')}`);
}

/** No process this test file started is left. */
export function expectNoSuiteProcesses(withinMs = 5000): Promise<void> {
  return expectNoProcesses([SUITE_TAG], withinMs);
}

/** Whether `pid` runs: it exists and is not a zombie (an orphan's exit is reaped by init when init gets to it). */
export function isLive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
