import type { Problem } from '../api-types/rest-api.js';
import { EXIT } from './exit-codes.js';

/** A failure the CLI reports and exits on; `exitCode` tells scripts what kind it was. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The command line itself is wrong (exit 2). */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT.usage);
    this.name = 'UsageError';
  }
}

/** No answer from the server at all (exit 3). */
export class ServerUnreachable extends CliError {
  constructor(
    readonly url: string,
    reason: string,
  ) {
    super(`cannot reach Toolplane at ${url}: ${reason}`, EXIT.unreachable);
    this.name = 'ServerUnreachable';
  }
}

/** The API answered with its error shape `{"error": {code, message, details}}` (exit 1). */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly problems: Problem[] = [],
    /** The whole answer, printed as it is under --json. */
    readonly body: unknown = undefined,
    /** What to do about it, when the CLI knows better than the server (e.g. how to give a key). */
    readonly hint?: string,
  ) {
    super(message, EXIT.failed);
    this.name = 'ApiError';
  }
}
