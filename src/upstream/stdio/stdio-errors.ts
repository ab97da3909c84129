/** The command of a stdio source could not be started. */
export class StdioSpawnError extends Error {
  constructor(
    readonly command: string,
    readonly code: string | undefined,
    options?: ErrorOptions & { missingCwd?: string },
  ) {
    super(options?.missingCwd ? `working directory does not exist: ${options.missingCwd}` : describeSpawnFailure(command, code), options);
    this.name = 'StdioSpawnError';
  }
}

/** The stdio server process ended while Toolplane still expected it to run. */
export class StdioProcessExitError extends Error {
  constructor(
    readonly exitCode: number | null,
    readonly signal: NodeJS.Signals | null,
    readonly stderrTail: string,
    /** What it wrote on stdout that is not JSON-RPC, quoted, when it never sent a message that is. */
    readonly strayStdout?: string,
    /** What else explains the exit (e.g. the sandbox it ran in), added in parentheses. */
    note?: string,
  ) {
    super(describeExit(exitCode, signal, stderrTail) + (strayStdout ? `; it wrote ${strayStdout} on stdout, not JSON-RPC` : '') + (note ? ` (${note})` : ''));
    this.name = 'StdioProcessExitError';
  }
}

/**
 * The server wrote on stdout what is not JSON-RPC before any message that is, and no message
 * followed in time: it is not speaking MCP there (a banner, a prompt, another transport's log).
 */
export class StdioStrayOutputError extends Error {
  constructor(
    /** Quoted, bounded and escaped (see StrayOutput). */
    readonly stdout: string,
    readonly stderrTail: string,
  ) {
    super(`the plugin wrote ${stdout} on stdout; MCP needs JSON-RPC there${stderrTail ? `; its stderr ends with: ${stderrTail}` : ''}`);
    this.name = 'StdioStrayOutputError';
  }
}

const TOO_LARGE_PREFIX = 'dropped a ';

/** Whether an error text (possibly relayed as a JSON-RPC error) is a StdioMessageTooLargeError's. */
export function isMessageTooLargeText(text: string): boolean {
  return text.includes(TOO_LARGE_PREFIX) && text.includes(' limit');
}

/** A line on the server's stdout exceeded the configured limit and was dropped. */
export class StdioMessageTooLargeError extends Error {
  constructor(
    readonly bytes: number,
    readonly maxLineBytes: number,
  ) {
    super(`${TOO_LARGE_PREFIX}${formatBytes(bytes)} message from the server: larger than the ${formatBytes(maxLineBytes)} limit`);
    this.name = 'StdioMessageTooLargeError';
  }
}

function describeSpawnFailure(command: string, code: string | undefined): string {
  switch (code) {
    case 'ENOENT':
      return `command not found: ${command}`;
    case 'EACCES':
    case 'EPERM':
      return `command is not executable: ${command}`;
    default:
      return `failed to start ${command}${code ? ` (${code})` : ''}`;
  }
}

function describeExit(exitCode: number | null, signal: NodeJS.Signals | null, stderrTail: string): string {
  const how = signal ? `was killed by ${signal}` : `exited with code ${exitCode ?? 'unknown'}`;
  return stderrTail ? `process ${how}: ${stderrTail}` : `process ${how} (no stderr output)`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}
