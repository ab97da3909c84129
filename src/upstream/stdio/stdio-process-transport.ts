import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { toJsonRpcMessage } from '../jsonrpc-message.js';
import { buildChildEnvironment } from './child-environment.js';
import type { SchemaLimits } from '../../shared/json-schema/schema-limits.js';
import { largeMessagesOffThread, OFF_THREAD_MIN_BYTES, parseLargeMessage } from '../../shared/off-thread/large-message.js';
import { OrderedDelivery } from '../../shared/off-thread/ordered-delivery.js';
import { JsonLineDecoder, type OversizedLine } from './json-line-decoder.js';
import { signalProcessGroup, trackProcessGroup, untrackProcessGroup } from './process-registry.js';
import { SANDBOX_START_NOTE, sandboxedLaunch, type Launch, type SandboxPolicy, type SandboxSettings } from './sandbox.js';
import { StderrLines } from './stderr-lines.js';
import { StderrTail } from './stderr-tail.js';
import { printable } from './printable-text.js';
import { StdioMessageTooLargeError, StdioProcessExitError, StdioSpawnError, StdioStrayOutputError } from './stdio-errors.js';
import { StrayOutput } from './stray-output.js';

export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
export const DEFAULT_STDERR_TAIL_BYTES = 16 * 1024;
export const DEFAULT_KILL_GRACE_MS = 2000;
/** After the child exits, how long to wait for its last stdout bytes before reporting the exit. */
const STDOUT_DRAIN_MS = 250;
/**
 * How long a server that wrote something other than JSON-RPC on stdout, before any message, has to
 * send one after all (a server that logs a banner to the wrong stream, then serves) before the
 * connection is refused as not speaking MCP there.
 */
const STRAY_OUTPUT_GRACE_MS = 2000;
/** Characters of stderr an error message about the start quotes (its end). */
const STARTUP_STDERR_CHARS = 1000;
/** Bytes of an unfinished stdout line looked at (a prompt the server waits on). */
const UNFINISHED_LINE_BYTES = 256;

export interface StdioProcessOptions {
  command: string;
  args?: string[];
  cwd?: string;
  /** The source's declared variables; the allowlisted part of Toolplane's environment is added. */
  env?: Record<string, string>;
  /** Longest accepted stdout line (one JSON-RPC message), in bytes. */
  maxLineBytes?: number;
  stderrTailBytes?: number;
  /** Time between SIGTERM and SIGKILL when closing. */
  killGraceMs?: number;
  /** Sees every stderr line (scrubbed, bounded) as it arrives, e.g. for logging. */
  onStderrLine?: (line: string) => void;
  /** Replaces secret values in stderr text before anyone sees it (lines, the kept tail, error messages). */
  scrub?: (text: string) => string;
  /** Schemas over these limits in a `tools/list` result parsed off the event loop are trimmed there (see trimOversizedSchemas). */
  schemaLimits?: SchemaLimits;
  /** Run the server in this sandbox (absent: as Toolplane's own user, unisolated), `home` as its HOME. */
  sandbox?: { policy: SandboxPolicy; pluginDir?: string; settings?: SandboxSettings; home?: string };
}

export interface StdioExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when the exit was requested by close(). */
  expected: boolean;
}

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * MCP client transport over a child process's stdin/stdout (newline-delimited JSON-RPC).
 *
 * Unlike the SDK's StdioClientTransport it spawns without a shell in a process group of its
 * own, passes an allowlisted environment, bounds every buffer, and close() kills the whole
 * group and resolves only once the child has exited. Exposing `pid` and `stderr` makes the
 * SDK treat it as stdio during version negotiation (probing in place, no sibling process).
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private readonly stderrBuffer: StderrTail;
  private readonly scrub: (text: string) => string;
  private readonly maxLineBytes: number;
  private readonly killGraceMs: number;
  private child?: Child;
  private exitInfo?: StdioExit;
  private exitError?: Error;
  private closing = false;
  /** stdin is corked until the end of this turn of the event loop (see send). */
  private corked = false;
  /** Sees every message before the client does (see interceptMessages). */
  private interceptor?: MessageInterceptor;
  private closePromise?: Promise<void>;
  private closeNotified = false;
  private readonly exited: Promise<void>;
  /** A write failed with EPIPE before close() (see noteWriteFailure). */
  private pipeBrokeFirst = false;
  private markExited!: () => void;
  /** Messages are delivered in the order they arrived, also when a large one is parsed on the worker thread. */
  private readonly deliveries = new OrderedDelivery();
  private decoder?: JsonLineDecoder;
  /** Whether the server sent a JSON-RPC message yet; until it does, what else it writes on stdout is kept. */
  private spokeProtocol = false;
  private readonly stray = new StrayOutput();
  private strayTimer?: NodeJS.Timeout;

  constructor(private readonly options: StdioProcessOptions) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    this.stderrBuffer = new StderrTail(options.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES);
    this.scrub = options.scrub ?? ((text) => text);
    this.exited = new Promise((resolve) => (this.markExited = resolve));
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  get stderr(): Readable | null {
    return this.child?.stderr ?? null;
  }

  /** The most recent stderr output (bounded), for error messages and logs. */
  get stderrTail(): string {
    return this.scrub(this.stderrBuffer.text());
  }

  /**
   * What the server wrote so far, while it has not sent a JSON-RPC message: for a message saying why
   * it is not answering (a timeout while connecting). Undefined once it spoke MCP.
   */
  startupReport(): string | undefined {
    if (this.spokeProtocol) return undefined;
    const unfinished = this.unfinishedLine();
    const stdout = this.stray.seen || unfinished !== '' ? `the plugin wrote ${this.stray.quoted(this.scrub, unfinished)} on stdout, not JSON-RPC` : 'the plugin wrote nothing on stdout';
    const stderr = this.startupStderr();
    if (stderr !== '') return `${stdout}; its stderr ends with: ${stderr}`;
    return this.stray.seen || unfinished !== '' ? `${stdout}, and nothing on stderr` : 'the plugin wrote nothing on stdout or stderr';
  }

  /** How the process ended, once it has. */
  get exit(): StdioExit | undefined {
    return this.exitInfo;
  }

  /** Why the transport stopped working when that was not requested: spawn failure or unexpected exit. */
  get failure(): Error | undefined {
    return this.exitError;
  }

  get running(): boolean {
    return this.child !== undefined && this.exitInfo === undefined && !this.closing;
  }

  start(): Promise<void> {
    if (this.child || this.closing) return Promise.reject(new Error('stdio transport already started'));
    const launch = this.launch();
    return new Promise<void>((resolve, reject) => {
      let child: Child;
      try {
        child = spawn(launch.command, launch.args, {
          cwd: launch.cwd,
          env: launch.env,
          shell: false,
          detached: true,
          stdio: ['pipe', 'pipe', 'pipe'],
          windowsHide: true,
        });
      } catch (error) {
        // Synchronous failures: invalid arguments (e.g. a NUL byte) or a bad cwd type.
        const spawnError = new StdioSpawnError(this.options.command, (error as NodeJS.ErrnoException).code, { cause: error });
        this.exitError = spawnError;
        this.markExited();
        reject(spawnError);
        return;
      }
      this.child = child;
      let spawned = false;

      child.once('spawn', () => {
        spawned = true;
        if (child.pid !== undefined) trackProcessGroup(child.pid, this.options.sandbox !== undefined);
        resolve();
      });
      child.on('error', (error: NodeJS.ErrnoException) => {
        if (!spawned) {
          // A missing cwd also fails with ENOENT; do not blame the command for it.
          const cwd = this.options.cwd;
          const missingCwd = error.code === 'ENOENT' && cwd !== undefined && !existsSync(cwd) ? cwd : undefined;
          const spawnError = new StdioSpawnError(this.options.command, error.code, { cause: error, missingCwd });
          this.exitError = spawnError;
          this.markExited();
          reject(spawnError);
          this.notifyClose();
          return;
        }
        this.onerror?.(error);
      });
      child.once('exit', (code, signal) => this.handleExit(child, code, signal));

      const offThread = largeMessagesOffThread() ? { minBytes: OFF_THREAD_MIN_BYTES, onLine: (bytes: Buffer) => this.handleLargeLine(bytes) } : undefined;
      const decoder = new JsonLineDecoder(
        this.maxLineBytes,
        (line) => this.deliveries.now(() => this.handleLine(line)),
        (oversized) => this.deliveries.now(() => this.handleOversized(oversized)),
        offThread,
      );
      this.decoder = decoder;
      child.stdout.on('data', (chunk: Buffer) => {
        decoder.push(chunk);
        if (!this.spokeProtocol) this.watchUnfinishedLine();
      });
      child.stdout.on('end', () => decoder.end());
      child.stdout.on('error', (error) => this.reportStreamError(error));
      const onLine = this.options.onStderrLine;
      const lines = onLine ? new StderrLines(this.scrub, onLine) : undefined;
      child.stderr.on('data', (chunk: Buffer) => {
        this.stderrBuffer.push(chunk);
        lines?.push(chunk.toString('utf8'));
      });
      child.stderr.on('end', () => lines?.end());
      child.stderr.on('error', () => undefined);
      child.stdin.on('error', (error) => {
        this.noteWriteFailure(error);
        this.reportStreamError(error);
      });
    });
  }

  /** The command line to spawn: the server's own, or bubblewrap running it. */
  private launch(): Launch {
    const declared = this.options.env ?? {};
    const launch: Launch = { command: this.options.command, args: this.options.args ?? [], cwd: this.options.cwd, env: buildChildEnvironment(declared) };
    const sandbox = this.options.sandbox;
    if (!sandbox) return launch;
    // Without a cwd of its own the server starts in Toolplane's: the sandbox must show that one too.
    launch.cwd ??= currentDirectory();
    return sandboxedLaunch(sandbox.policy, launch, { pluginDir: sandbox.pluginDir, settings: sandbox.settings, declaredEnv: Object.keys(declared), home: sandbox.home });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || !this.running || stdin.destroyed || stdin.writableEnded) {
      return Promise.reject(this.exitError ?? new Error('stdio process is not running'));
    }
    // Messages sent in the same turn of the event loop (calls of concurrent requests) leave in one
    // write: one system call and one wake-up of the server instead of one per message.
    if (!this.corked) {
      this.corked = true;
      stdin.cork();
      setImmediate(() => {
        this.corked = false;
        stdin.uncork();
      });
    }
    return new Promise((resolve, reject) => {
      stdin.write(`${JSON.stringify(message)}\n`, (error) => {
        if (!error) return resolve();
        this.noteWriteFailure(error);
        reject(error);
      });
    });
  }

  /** Ends stdin, SIGTERMs the process group, SIGKILLs it after the grace period; resolves once the child exited. */
  close(): Promise<void> {
    this.closePromise ??= this.shutdown();
    return this.closePromise;
  }

  private async shutdown(): Promise<void> {
    this.closing = true;
    clearTimeout(this.strayTimer);
    const child = this.child;
    if (child?.pid !== undefined && this.exitInfo === undefined) {
      const pid = child.pid;
      try {
        child.stdin.end();
      } catch {
        // already broken: the signals below still apply
      }
      signalProcessGroup(pid, 'SIGTERM');
      const escalation = setTimeout(() => signalProcessGroup(pid, 'SIGKILL'), this.killGraceMs);
      try {
        await this.exited;
      } finally {
        clearTimeout(escalation);
      }
    } else if (child) {
      await this.exited;
    }
    this.notifyClose();
  }

  /**
   * A write that found stdin's other end closed (EPIPE) before a close was asked for: the process
   * is on its way out by itself, and is closed in answer to the failure it caused. Its exit is
   * then its own, not the close's.
   */
  private noteWriteFailure(error: Error): void {
    if (!this.closing && (error as NodeJS.ErrnoException).code === 'EPIPE') this.pipeBrokeFirst = true;
  }

  private handleExit(child: Child, code: number | null, signal: NodeJS.Signals | null): void {
    clearTimeout(this.strayTimer);
    // Closed by request, unless the process broke the pipe first and ended by itself (no signal of ours).
    const expected = this.closing && !(this.pipeBrokeFirst && signal === null);
    this.exitInfo = { code, signal, expected };
    const pid = child.pid;
    if (pid !== undefined) {
      // Anything the server left behind in its group goes with it.
      signalProcessGroup(pid, 'SIGKILL');
      untrackProcessGroup(pid);
    }
    if (!expected) {
      // stdout may still hold the last responses; let them through before reporting the exit.
      const report = () => {
        clearTimeout(timer);
        if (!this.deliveries.idle) {
          // The last messages are still being parsed: report the exit after them.
          void this.deliveries.drained().then(report);
          return;
        }
        if (this.exitError === undefined) {
          const stray = !this.spokeProtocol && this.stray.seen ? this.stray.quoted(this.scrub) : undefined;
          // A process that ends before it spoke failed to start: in the sandbox, that may be why.
          const note = this.options.sandbox && !this.spokeProtocol ? SANDBOX_START_NOTE : undefined;
          this.exitError = new StdioProcessExitError(code, signal, printable(this.scrub(this.stderrBuffer.summary())), stray, note);
          this.onerror?.(this.exitError);
        }
        this.markExited();
        this.notifyClose();
      };
      const timer = setTimeout(report, STDOUT_DRAIN_MS);
      child.stdout.once('close', report);
      if (child.stdout.closed) report();
      return;
    }
    this.markExited();
  }

  private handleLine(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.ignoreLine(line);
      return;
    }
    this.deliver(parsed, () => line);
  }

  /** A line large enough to be parsed off the event loop; what follows it waits for it. */
  private handleLargeLine(bytes: Buffer): void {
    const head = bytes.subarray(0, 120).toString('utf8');
    this.deliveries.later(
      parseLargeMessage(bytes, this.options.schemaLimits),
      (value) => this.deliver(value, () => head),
      () => this.ignoreLine(head),
    );
  }

  /**
   * `interceptor.message` sees each message from the server first and keeps those it answers true
   * for from the client; `interceptor.closed` is told when the process is gone. One interceptor
   * per transport (the connection's direct caller).
   */
  interceptMessages(interceptor: MessageInterceptor): void {
    this.interceptor = interceptor;
  }

  private deliver(parsed: unknown, preview: () => string): void {
    let message: JSONRPCMessage;
    try {
      message = toJsonRpcMessage(parsed);
    } catch {
      this.ignoreLine(preview());
      return;
    }
    this.dispatch(message);
  }

  private dispatch(message: JSONRPCMessage): void {
    if (!this.spokeProtocol) this.firstMessage();
    if (this.interceptor?.message(message)) return;
    this.onmessage?.(message);
  }

  private ignoreLine(line: string): void {
    if (!this.spokeProtocol) {
      this.stray.add(line);
      this.awaitProtocol();
    }
    const preview = line.length > 120 ? `${line.slice(0, 120)}…` : line;
    this.onerror?.(new Error(`ignored a stdout line that is not a JSON-RPC message: ${preview}`));
  }

  private firstMessage(): void {
    this.spokeProtocol = true;
    clearTimeout(this.strayTimer);
  }

  /** A line begun with anything but what JSON-RPC begins with (a prompt waiting for an answer) is stray output too. */
  private watchUnfinishedLine(): void {
    const head = this.unfinishedLine().trimStart();
    if (head !== '' && head[0] !== '{' && head[0] !== '[') this.awaitProtocol();
  }

  private unfinishedLine(): string {
    return this.decoder?.pendingHead(UNFINISHED_LINE_BYTES) ?? '';
  }

  /** Stray output came first: a JSON-RPC message must follow within the grace period, or the connection is refused. */
  private awaitProtocol(): void {
    if (this.strayTimer !== undefined || this.spokeProtocol) return;
    this.strayTimer = setTimeout(() => {
      if (this.spokeProtocol || !this.running) return;
      this.exitError = new StdioStrayOutputError(this.stray.quoted(this.scrub, this.unfinishedLine()), this.startupStderr());
      this.onerror?.(this.exitError);
      void this.close();
    }, STRAY_OUTPUT_GRACE_MS);
    this.strayTimer.unref();
  }

  private startupStderr(): string {
    return printable(this.scrub(this.stderrBuffer.summary(STARTUP_STDERR_CHARS)));
  }

  private handleOversized(line: OversizedLine): void {
    if (!this.spokeProtocol) this.firstMessage();
    const error = new StdioMessageTooLargeError(line.bytes, this.maxLineBytes);
    this.onerror?.(error);
    // Fail the request the dropped response belonged to now rather than at its timeout.
    const id = responseIdOf(line);
    if (id !== undefined) {
      this.dispatch({ jsonrpc: '2.0', id, error: { code: -32603, message: error.message } });
    }
  }

  private reportStreamError(error: Error): void {
    if (this.running) this.onerror?.(error);
  }

  private notifyClose(): void {
    if (this.closeNotified) return;
    this.closeNotified = true;
    this.interceptor?.closed();
    this.onclose?.();
  }
}

/** This process's working directory; undefined when it no longer exists. */
function currentDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}

export interface MessageInterceptor {
  message(message: JSONRPCMessage): boolean;
  closed(): void;
}

// The SDK serialises responses as {"jsonrpc":"2.0","id":…,"result":…} or {"result":…,"jsonrpc":"2.0","id":…};
// only these unambiguous framings are trusted to name the request.
const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*${ID}\s*,\s*"(?:result|error)"\s*:`);
const TAIL_ID = new RegExp(String.raw`,\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*${ID}\s*\}\s*$`);

function responseIdOf(line: OversizedLine): string | number | undefined {
  const match = HEAD_ID.exec(line.head) ?? (line.head.trimStart().startsWith('{"result"') ? TAIL_ID.exec(line.tail) : null);
  if (!match?.[1]) return undefined;
  try {
    const id: unknown = JSON.parse(match[1]);
    return typeof id === 'number' || typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
