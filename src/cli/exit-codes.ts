/** The CLI's exit codes; docs/operations.md lists them for scripts. */
export const EXIT = {
  ok: 0,
  /** The API answered an error, or a check (doctor, a chain verification) failed. */
  failed: 1,
  /** The command line is wrong: an unknown option, a missing argument, unreadable or invalid input. */
  usage: 2,
  /** The server could not be reached. */
  unreachable: 3,
  /** `call`: the tool ran and reported an error of its own (status tool_error). */
  toolError: 4,
} as const;
