import { logLevel } from './log-level.js';
import { PinoLogger } from './pino-logger.js';

describe('logLevel', () => {
  afterEach(() => {
    logLevel.install(() => true);
  });

  it('answers what the logger in use writes', () => {
    new PinoLogger('warn');
    expect(logLevel.enabled('info')).toBe(false);
    expect(logLevel.enabled('debug')).toBe(false);
    expect(logLevel.enabled('warn')).toBe(true);
    expect(logLevel.enabled('error')).toBe(true);
    new PinoLogger('debug');
    expect(logLevel.enabled('info')).toBe(true);
    expect(logLevel.enabled('debug')).toBe(true);
    expect(logLevel.enabled('trace')).toBe(false);
  });
});
