/**
 * Every stdio child Toolplane spawned and has not yet reaped, keyed by pid. Each child leads
 * its own process group (spawned detached), so signalling `-pid` also reaches anything the
 * server started itself (npx → node, shell wrappers, ...).
 */
const liveGroups = new Set<number>();
/** Those of them that run in a sandbox. */
const sandboxedGroups = new Set<number>();
let exitHookInstalled = false;

export function trackProcessGroup(pid: number, sandboxed = false): void {
  liveGroups.add(pid);
  if (sandboxed) sandboxedGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Last resort when the application exits without closing its connections; must be synchronous.
    process.on('exit', () => killAllStdioProcesses());
  }
}

export function untrackProcessGroup(pid: number): void {
  liveGroups.delete(pid);
  sandboxedGroups.delete(pid);
}

/** How many stdio children are live, and how many of them sandboxed (metrics). */
export function liveStdioProcessCounts(): { processes: number; sandboxed: number } {
  return { processes: liveGroups.size, sandboxed: sandboxedGroups.size };
}

/** Pids of the stdio children that are still tracked (diagnostics and tests). */
export function liveStdioProcessIds(): number[] {
  return [...liveGroups];
}

/** SIGKILLs every tracked process group immediately. Synchronous, safe to call repeatedly. */
export function killAllStdioProcesses(): void {
  for (const pid of liveGroups) signalProcessGroup(pid, 'SIGKILL');
  liveGroups.clear();
  sandboxedGroups.clear();
}

/** Signals the whole group led by `pid`; returns false when nothing was left to signal. */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    if (process.platform === 'win32') process.kill(pid, signal);
    else process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}
