import type { LoggerService } from '@nestjs/common';
import { pino, stdTimeFunctions, type Logger } from 'pino';
import { activeTrace } from '../active-trace.js';
import { requestContext } from '../request-context.js';
import { logLevel, type LineLevel, type LogLevel } from './log-level.js';

/**
 * Nest's own start-up lines (each module loaded, each route mapped: some 90 lines), which the
 * ready line sums up; they are debug lines here, whatever level Nest gives them.
 */
const FRAMEWORK_CONTEXTS: ReadonlySet<string> = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/** Nest's logger interface over pino: one JSON line per event on stdout, naming the request it served (`requestId`) and, when traces are on, its trace (`traceId`, `spanId`). */
export class PinoLogger implements LoggerService {
  readonly pino: Logger;

  constructor(level: LogLevel) {
    this.pino = pino({
      level,
      base: { service: 'toolplane' },
      timestamp: stdTimeFunctions.isoTime,
      mixin: () => {
        const request = requestContext.current();
        const trace = activeTrace.current();
        if (!trace) return request ? { requestId: request.requestId } : {};
        return request ? { requestId: request.requestId, traceId: trace.traceId, spanId: trace.spanId } : { traceId: trace.traceId, spanId: trace.spanId };
      },
    });
    logLevel.install((level) => this.pino.isLevelEnabled(level));
  }

  log(message: unknown, context?: string): void {
    this.write(context !== undefined && FRAMEWORK_CONTEXTS.has(context) ? 'debug' : 'info', message, context);
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.write('error', trace ? `${String(message)}\n${trace}` : message, context);
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }
  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  private write(level: LineLevel, message: unknown, context?: string): void {
    if (!this.pino.isLevelEnabled(level)) return;
    if (typeof message === 'object' && message !== null) this.pino[level]({ context, ...message });
    else this.pino[level]({ context }, String(message));
  }
}
