import { ConsoleLogger, Logger, type LoggerService } from '@nestjs/common';

export interface LogLine {
  level: 'log' | 'error' | 'warn' | 'debug' | 'verbose';
  message: unknown;
  context: unknown;
}

/** Every line logged through Nest's Logger, from now until `restore`, kept instead of written. */
export function captureLogs(): { lines: LogLine[]; restore: () => void } {
  const lines: LogLine[] = [];
  const keep = (level: LogLine['level']) => (message: unknown, context?: unknown) => void lines.push({ level, message, context });
  const service: LoggerService = { log: keep('log'), error: keep('error'), warn: keep('warn'), debug: keep('debug'), verbose: keep('verbose') };
  Logger.overrideLogger(service);
  return { lines, restore: () => Logger.overrideLogger(new ConsoleLogger()) };
}
