import { execFileSync } from 'node:child_process';

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
