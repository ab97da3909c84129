import { ConfigError, isLoopback, loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({ PATH: '/usr/bin' });
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', authDisabled: false, logLevel: 'info', databaseUrl: undefined });
    expect(config.dataDir).toMatch(/\.toolplane$/);
  });

  it('reports every bad setting at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', HOST: '0.0.0.0', TOOLPLANE_AUTH: 'off', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x', TOOLPLANE_ENCRYPTION_KEY: 'short', TOOLPLANE_ADMIN_KEY: 'tiny' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'TOOLPLANE_AUTH=off', 'LOG_LEVEL', 'DATABASE_URL', 'TOOLPLANE_ENCRYPTION_KEY', 'TOOLPLANE_ADMIN_KEY']) {
      expect(problems).toContain(name);
    }
    expect((error as ConfigError).problems).toHaveLength(6);
  });

  it('takes an OIDC issuer only with its audience, both as http(s) URLs', () => {
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig({ PATH: '/usr/bin', ...env });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problemsOf({ TOOLPLANE_OIDC_ISSUER: 'https://sso.example/realms/acme' })).toEqual([expect.stringContaining('TOOLPLANE_OIDC_AUDIENCE must be an http(s) URL (required')]);
    expect(problemsOf({ TOOLPLANE_OIDC_ISSUER: 'sso.example', TOOLPLANE_OIDC_AUDIENCE: 'https://tools.example', TOOLPLANE_OIDC_JWKS_URL: 'ftp://x' }).map((p) => p.split(' ')[0])).toEqual(['TOOLPLANE_OIDC_ISSUER', 'TOOLPLANE_OIDC_JWKS_URL']);
    expect(loadConfig({ PATH: '/usr/bin', TOOLPLANE_OIDC_ISSUER: 'https://sso.example', TOOLPLANE_OIDC_AUDIENCE: 'https://tools.example/' }).oidc).toMatchObject({ audience: 'https://tools.example', rolesClaim: 'roles', clockSkewSeconds: 60 });
  });

  it('keeps executions 30 days by default, reads TOOLPLANE_EXECUTION_RETENTION as a duration, and reports it with the others', () => {
    expect(loadConfig({ PATH: '/usr/bin' })).toMatchObject({ executionRetentionMs: 30 * 86_400_000, executionPurgeIntervalMs: 300_000, executionPurgeBatch: 5000 });
    expect(loadConfig({ TOOLPLANE_EXECUTION_RETENTION: '12h' }).executionRetentionMs).toBe(12 * 3_600_000);
    expect(loadConfig({ TOOLPLANE_EXECUTION_RETENTION: 'off' }).executionRetentionMs).toBeNull();
    let error: unknown;
    try {
      loadConfig({ TOOLPLANE_EXECUTION_RETENTION: '6m', TOOLPLANE_EXECUTION_PURGE_BATCH: '10', PORT: 'x' });
    } catch (e) {
      error = e;
    }
    expect((error as ConfigError).problems.map((p) => p.split(' ')[0]).sort()).toEqual(['PORT', 'TOOLPLANE_EXECUTION_PURGE_BATCH', 'TOOLPLANE_EXECUTION_RETENTION']);
  });

  it('lets a task wait 1 h for its caller\'s input unless TOOLPLANE_TASK_INPUT_WAIT_MS says otherwise (1 s to 7 days)', () => {
    expect(loadConfig({ PATH: '/usr/bin' }).taskInputWaitMs).toBe(3_600_000);
    expect(loadConfig({ TOOLPLANE_TASK_INPUT_WAIT_MS: '60000' }).taskInputWaitMs).toBe(60_000);
    expect(() => loadConfig({ TOOLPLANE_TASK_INPUT_WAIT_MS: '10' })).toThrow(ConfigError);
    expect(() => loadConfig({ TOOLPLANE_TASK_INPUT_WAIT_MS: String(8 * 86_400_000) })).toThrow(ConfigError);
  });

  it('turns a task-capable MCP call into a task after 30 s unless TOOLPLANE_TASK_AFTER_MS says otherwise (0: never)', () => {
    expect(loadConfig({ PATH: '/usr/bin' }).taskAfterMs).toBe(30_000);
    expect(loadConfig({ TOOLPLANE_TASK_AFTER_MS: '1500' }).taskAfterMs).toBe(1500);
    expect(loadConfig({ TOOLPLANE_TASK_AFTER_MS: '0' }).taskAfterMs).toBeNull();
    expect(() => loadConfig({ TOOLPLANE_TASK_AFTER_MS: 'soon' })).toThrow(ConfigError);
  });

  it('answers a call after its record is flushed to disk unless TOOLPLANE_EXECUTION_COMMIT says async', () => {
    expect(loadConfig({ PATH: '/usr/bin' }).executionCommit).toBe('durable');
    expect(loadConfig({ TOOLPLANE_EXECUTION_COMMIT: ' Async ' }).executionCommit).toBe('async');
    expect(loadConfig({ TOOLPLANE_EXECUTION_COMMIT: 'durable' }).executionCommit).toBe('durable');
    let error: unknown;
    try {
      loadConfig({ TOOLPLANE_EXECUTION_COMMIT: 'off', TOOLPLANE_SANDBOX: 'maybe', PORT: 'x' });
    } catch (e) {
      error = e;
    }
    expect((error as ConfigError).problems).toHaveLength(3);
    expect((error as ConfigError).problems).toContain('TOOLPLANE_EXECUTION_COMMIT must be one of durable, async (got "off")');
    expect((error as ConfigError).problems).toContain('TOOLPLANE_SANDBOX must be one of auto, required, off (got "maybe")');
  });

  it('turns traces on only when an OTLP endpoint or a traces exporter is configured', () => {
    const tracing = (env: Record<string, string>) => loadConfig({ PATH: '/usr/bin', ...env }).tracing;
    expect(tracing({})).toEqual({ enabled: false, serviceName: 'toolplane', payloads: false });
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).enabled).toBe(true);
    expect(tracing({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }).enabled).toBe(true);
    expect(tracing({ OTEL_TRACES_EXPORTER: 'console' }).enabled).toBe(true);
    expect(tracing({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).enabled).toBe(false);
    expect(tracing({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).enabled).toBe(false);
    expect(tracing({ OTEL_SERVICE_NAME: 'gateway', TOOLPLANE_TRACE_PAYLOADS: 'true' })).toMatchObject({ serviceName: 'gateway', payloads: true });
    expect(() => loadConfig({ PATH: '/usr/bin', TOOLPLANE_TRACE_PAYLOADS: 'yes', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      expect.objectContaining({ problems: [expect.stringContaining('TOOLPLANE_TRACE_PAYLOADS'), expect.stringContaining('OTEL_EXPORTER_OTLP_ENDPOINT')] }),
    );
  });

  it('reads TOOLPLANE_ENV_REFERENCES_ALLOW as variable names, refusing Toolplane\'s own settings in it', () => {
    expect(loadConfig({ PATH: '/usr/bin' }).envReferencesAllow).toEqual([]);
    expect(loadConfig({ TOOLPLANE_ENV_REFERENCES_ALLOW: 'PGPASSWORD, https_proxy' }).envReferencesAllow).toEqual(['PGPASSWORD', 'https_proxy']);
    let error: unknown;
    try {
      loadConfig({ TOOLPLANE_ENV_REFERENCES_ALLOW: 'TOOLPLANE_ENCRYPTION_KEY,DATABASE_URL,NODE_*', PORT: 'x' });
    } catch (e) {
      error = e;
    }
    expect((error as ConfigError).problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'PORT must be an integer between 0 and 65535 (got "x")',
      'TOOLPLANE_ENV_REFERENCES_ALLOW',
      'TOOLPLANE_ENV_REFERENCES_ALLOW',
      'TOOLPLANE_ENV_REFERENCES_ALLOW',
    ]);
  });

  it('allows auth off on loopback only', () => {
    expect(loadConfig({ TOOLPLANE_AUTH: 'off', HOST: '127.0.0.1' }).authDisabled).toBe(true);
    expect(loadConfig({ TOOLPLANE_AUTH: 'off', HOST: '::1' }).authDisabled).toBe(true);
    expect(() => loadConfig({ TOOLPLANE_AUTH: 'off', HOST: '10.0.0.5' })).toThrow(ConfigError);
    expect(isLoopback('localhost')).toBe(true);
    expect(isLoopback('128.0.0.1')).toBe(false);
  });

  it('accepts a 32-byte key as hex or base64', () => {
    expect(loadConfig({ TOOLPLANE_ENCRYPTION_KEY: 'a'.repeat(64) }).encryptionKey).toBe('a'.repeat(64));
    expect(loadConfig({ TOOLPLANE_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }).encryptionKey).toBeDefined();
  });

  it('reads TOOLPLANE_ALLOWED_ORIGINS as serialized origins, refusing anything but scheme, host and port', () => {
    expect(loadConfig({}).allowedOrigins).toBeUndefined();
    expect(loadConfig({ TOOLPLANE_ALLOWED_ORIGINS: ' https://Toolplane.Example.com:443/ , http://127.0.0.1:8080' }).allowedOrigins).toEqual([
      'https://toolplane.example.com',
      'http://127.0.0.1:8080',
    ]);
    let error: unknown;
    try {
      loadConfig({ TOOLPLANE_ALLOWED_ORIGINS: 'null,ftp://x.example,https://x.example/path,https://u:p@x.example,*,https://ok.example' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toHaveLength(5);
    expect(() => loadConfig({ TOOLPLANE_ALLOWED_ORIGINS: ' , ' })).toThrow(ConfigError);
  });
});
