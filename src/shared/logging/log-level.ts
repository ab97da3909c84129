/** The least level written (LOG_LEVEL), or nothing at all. */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** A level a log line is written at, by pino's names. */
export type LineLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

let isEnabled: (level: LineLevel) => boolean = () => true;

/**
 * Whether lines at `level` are written, so that a line built on every call (the call's own line)
 * is not built for nothing under `LOG_LEVEL=warn`. Every level is, until the logger in use says
 * otherwise (PinoLogger does).
 */
export const logLevel = {
  enabled(level: LineLevel): boolean {
    return isEnabled(level);
  },
  install(check: (level: LineLevel) => boolean): void {
    isEnabled = check;
  },
};
