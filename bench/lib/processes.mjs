// Child processes of the benchmark and what /proc says about them (Linux only).
// Everything is spawned in its own process group and loopback-only; stopAll() ends every group
// that was started, and every process group found below them, even after a failure.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/* global fetch, AbortSignal */

export const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** `/proc/<pid>/stat` fields after the command name: [state, ppid, pgrp, …]; null once it is gone. */
function statFields(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    return { comm: text.slice(text.indexOf('(') + 1, close), fields: text.slice(close + 2).split(' ') };
  } catch {
    return null;
  }
}

/** User + system CPU of one process, in seconds; `withReaped` adds its waited-for children's. */
export function cpuSeconds(pid, { withReaped = false } = {}) {
  const stat = statFields(pid);
  if (!stat) return NaN;
  // fields[11] utime, [12] stime, [13] cutime, [14] cstime (stat fields 14-17), in clock ticks
  const f = stat.fields.map(Number);
  const ticks = f[11] + f[12] + (withReaped ? f[13] + f[14] : 0);
  return ticks / CLK_TCK;
}

/** System (kernel) CPU of one process, in seconds. */
export function systemCpuSeconds(pid) {
  const stat = statFields(pid);
  return stat ? Number(stat.fields[12]) / CLK_TCK : NaN;
}

/** Resident set size in bytes (`VmRSS` of `/proc/<pid>/status`). */
export function rssBytes(pid) {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Every live descendant of `rootPid`: [{ pid, ppid, pgrp, comm }]. */
export function descendants(rootPid) {
  const all = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = statFields(name);
    if (!stat || stat.fields[0] === 'Z') continue;
    all.push({ pid: Number(name), ppid: Number(stat.fields[1]), pgrp: Number(stat.fields[2]), comm: stat.comm });
  }
  const found = [];
  let frontier = [rootPid];
  while (frontier.length > 0) {
    const next = all.filter((p) => frontier.includes(p.ppid));
    found.push(...next);
    frontier = next.map((p) => p.pid);
  }
  return found;
}

/**
 * The first live descendant of `rootPid` whose command line contains `needle`, skipping the
 * bubblewrap processes a sandboxed plugin runs under (their command lines name it too).
 */
export function findDescendant(rootPid, needle) {
  for (const p of descendants(rootPid)) {
    if (p.comm === 'bwrap') continue;
    try {
      if (readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(needle)) return p.pid;
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** CPU seconds of the PostgreSQL processes under `rootPid` (live backends plus what the postmaster reaped). */
export function postgresCpuSeconds(rootPid) {
  return descendants(rootPid)
    .filter((p) => p.comm === 'postgres')
    .reduce((sum, p) => sum + (cpuSeconds(p.pid, { withReaped: true }) || 0), 0);
}

/** Busy CPU seconds of the whole machine so far (all cores, from the `cpu` line of /proc/stat). */
export function machineBusySeconds() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal guest guest_nice; guest time is already in user
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return (user + nice + system + irq + softirq + steal) / CLK_TCK;
}

/** CPU seconds of this process alone: the load generator (autocannon runs in it) and the benchmark's bookkeeping. */
export function loadGeneratorCpuSeconds() {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/**
 * CPU seconds of this process and of every process it started with everything below them
 * (live processes plus what they reaped): what the benchmark itself costs the machine.
 */
export function ownCpuSeconds() {
  let total = loadGeneratorCpuSeconds();
  for (const handle of started) if (alive(handle.pid)) total += treeCpuSeconds(handle.pid);
  return total;
}

/** CPU seconds of `rootPid` and every live process below it, each with what it reaped. */
export function treeCpuSeconds(rootPid) {
  let total = cpuSeconds(rootPid, { withReaped: true }) || 0;
  for (const p of descendants(rootPid)) total += cpuSeconds(p.pid, { withReaped: true }) || 0;
  return total;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function groupAlive(pgrp) {
  try {
    process.kill(-pgrp, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgrp, signal) {
  try {
    process.kill(-pgrp, signal);
  } catch {
    // already gone
  }
}

const started = [];

/**
 * Spawns `command args` as the leader of a new process group, keeping the last 64 KiB of its output.
 * `name` labels it in errors.
 */
export function startProcess(name, command, args, { env, cwd } = {}) {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output += chunk.toString();
    if (output.length > 128 * 1024) output = output.slice(-64 * 1024);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  child.once('error', (error) => {
    output += `\n[spawn error] ${error.message}`;
  });
  const handle = {
    name,
    child,
    pid: child.pid,
    exited,
    /** Process groups seen under it (stdio upstreams run in groups of their own). */
    groups: new Set(),
    output: () => output,
    rememberGroups() {
      for (const p of descendants(child.pid)) handle.groups.add(p.pgrp);
    },
  };
  started.push(handle);
  return handle;
}

/** Polls `url` until it answers 2xx; fails after `timeoutMs` or when the process exits first. */
export async function waitForHttp(handle, url, { timeoutMs = 60_000, init } = {}) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void handle.exited.then(() => (exited = true));
  let lastError = '';
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${handle.name} exited before it was ready:\n${handle.output().slice(-4000)}`);
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.ok) return;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = error.message;
    }
    await sleep(100);
  }
  throw new Error(`${handle.name} was not ready at ${url} within ${timeoutMs} ms (${lastError}):\n${handle.output().slice(-4000)}`);
}

/** SIGTERM to the process (it shuts its own children down), then SIGKILL to its groups after `graceMs`. */
export async function stopProcess(handle, graceMs = 15_000) {
  handle.rememberGroups();
  const groups = [handle.pid, ...handle.groups];
  if (alive(handle.pid)) {
    try {
      process.kill(handle.pid, 'SIGTERM');
    } catch {
      // gone meanwhile
    }
    await Promise.race([handle.exited, sleep(graceMs)]);
  }
  // Give groups it was asked to stop a moment, then force whatever is left.
  const deadline = Date.now() + 2000;
  while (groups.some(groupAlive) && Date.now() < deadline) await sleep(100);
  for (const pgrp of groups) if (groupAlive(pgrp)) signalGroup(pgrp, 'SIGKILL');
}

/** Stops every process this module started, newest first. */
export async function stopAll(graceMs) {
  for (const handle of started.splice(0).reverse()) await stopProcess(handle, graceMs);
}

/** Synchronous last resort (process 'exit'): SIGKILL every group that was started. */
export function killAllNow() {
  for (const handle of started) {
    for (const pgrp of [handle.pid, ...handle.groups]) signalGroup(pgrp, 'SIGKILL');
  }
}

/**
 * `process.memoryUsage()` of a process preloaded with bench/lib/heap-probe.mjs, after a full GC:
 * signals it and waits (at most `timeoutMs`) for the file it writes.
 */
export async function heapAfterGc(pid, file, timeoutMs = 10_000) {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
    await sleep(20);
  }
  throw new Error(`no heap figures from process ${pid} within ${timeoutMs} ms (is it running with bench/lib/heap-probe.mjs?)`);
}
