import fc from 'fast-check';
import { envReferenceAllowList, envReferencePolicy } from './env-reference-policy.js';

describe('which ${env:NAME} a source may refer to', () => {
  const strict = envReferencePolicy([]);

  it("refuses every variable Toolplane, its database client, telemetry, Node.js or proxies read, in any case", () => {
    const refused = [
      'DATABASE_URL',
      'TOOLPLANE_ENCRYPTION_KEY',
      'toolplane_admin_key',
      'PGPASSWORD',
      'PGHOST',
      'PGPASSFILE',
      'OTEL_EXPORTER_OTLP_HEADERS',
      'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
      'NODE_OPTIONS',
      'NODE_EXTRA_CA_CERTS',
      'NODE_TLS_REJECT_UNAUTHORIZED',
      'HTTP_PROXY',
      'https_proxy',
      'No_Proxy',
      'ALL_PROXY',
      'PORT',
      'HOST',
      'PATH',
      'LOG_LEVEL',
      'UV_THREADPOOL_SIZE',
      'SSL_CERT_FILE',
      'OPENSSL_CONF',
      'UNDICI_NO_WASM_SIMD',
      'NEST_DEBUG',
    ];
    for (const name of refused) expect({ name, refused: strict.refusal(name) !== undefined }).toEqual({ name, refused: true });
    for (const name of ['GITHUB_TOKEN', 'PROXY_HOST', 'HOSTNAME_OF_API', 'MY_PORT', 'OPENAI_API_KEY']) expect({ name, refusal: strict.refusal(name) }).toEqual({ name, refusal: undefined });
  });

  it('lets the operator allow some by name, exactly as written, but never Toolplane\'s own settings', () => {
    const policy = envReferencePolicy(['PGPASSWORD', 'https_proxy']);
    expect(policy.refusal('PGPASSWORD')).toBeUndefined();
    expect(policy.refusal('https_proxy')).toBeUndefined();
    expect(policy.refusal('HTTPS_PROXY')).toMatch(/TOOLPLANE_ENV_REFERENCES_ALLOW/);
    expect(policy.refusal('PGUSER')).toMatch(/TOOLPLANE_ENV_REFERENCES_ALLOW/);
    expect(envReferencePolicy(['TOOLPLANE_ENCRYPTION_KEY', 'DATABASE_URL']).refusal('TOOLPLANE_ENCRYPTION_KEY')).toMatch(/Toolplane's own/);
  });

  it('reads the allow list, reporting every entry it cannot take', () => {
    expect(envReferenceAllowList(undefined)).toEqual({ names: [], problems: [] });
    expect(envReferenceAllowList(' PGPASSWORD , NODE_EXTRA_CA_CERTS,,')).toEqual({ names: ['PGPASSWORD', 'NODE_EXTRA_CA_CERTS'], problems: [] });
    const { problems } = envReferenceAllowList('PG*,TOOLPLANE_ENCRYPTION_KEY,database_url,OK_NAME,bad name');
    expect(problems).toEqual([
      expect.stringContaining('"PG*" is not a variable name'),
      expect.stringContaining('TOOLPLANE_ENCRYPTION_KEY is Toolplane\'s own'),
      expect.stringContaining('database_url is Toolplane\'s own'),
      expect.stringContaining('"bad name" is not a variable name'),
    ]);
  });

  it('never allows a TOOLPLANE_ variable, whatever the list says (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_]{0,20}$/), fc.array(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/)), (rest, allowed) => {
        const name = `TOOLPLANE_${rest}`;
        expect(envReferencePolicy([...allowed, name]).refusal(name)).toBeDefined();
        expect(envReferencePolicy([...allowed, name.toLowerCase()]).refusal(name.toLowerCase())).toBeDefined();
      }),
    );
  });
});
