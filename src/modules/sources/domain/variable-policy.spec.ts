import type { VariableDeclaration } from './manifest/env-declaration.js';
import { envReferencePolicy } from '../../../config/env-reference-policy.js';
import { checkVariables, withDeclaredDefaults } from './variable-policy.js';

const strict = envReferencePolicy([]);

const decl = (name: string, extra: Partial<VariableDeclaration> = {}): VariableDeclaration => ({ name, isRequired: false, isSecret: false, ...extra });

describe('checkVariables', () => {
  it('accepts literals, references and declared defaults', () => {
    const result = checkVariables(
      'env',
      { TOKEN: '${secret:GH_TOKEN}', MODE: 'fast', PROXY: 'http://${env:PROXY_HOST}:3128' },
      [decl('TOKEN', { isRequired: true, isSecret: true }), decl('MODE', { choices: ['fast', 'slow'] }), decl('LEVEL', { isRequired: true, default: 'info' })],
      'server.json',
      strict,
    );
    expect(result.problems).toEqual([]);
    expect(result.references).toEqual([
      { kind: 'secret', name: 'GH_TOKEN' },
      { kind: 'env', name: 'PROXY_HOST' },
    ]);
  });

  it('reports every problem at once', () => {
    const result = checkVariables(
      'env',
      { TOKEN: 'ghp_literal', MODE: 'medium', 'BAD-NAME': 'x', REF: '${vault:x}', OWN: '${env:DATABASE_URL}', N: 'abc' },
      [decl('TOKEN', { isSecret: true }), decl('MODE', { choices: ['fast', 'slow'] }), decl('REQ', { isRequired: true }), decl('N', { format: 'number' })],
      'server.json',
      strict,
    );
    expect(result.problems.map((p) => p.path).sort()).toEqual(['env.BAD-NAME', 'env.MODE', 'env.N', 'env.OWN', 'env.REF', 'env.REQ', 'env.TOKEN']);
    expect(result.problems.find((p) => p.path === 'env.TOKEN')!.message).toContain('${secret:TOKEN}');
    expect(JSON.stringify(result.problems)).not.toContain('ghp_literal');
  });

  it('treats header names case-insensitively and refuses transport headers', () => {
    const result = checkVariables('headers', { Authorization: 'Bearer ${secret:T}', authorization: 'x', Host: 'evil', 'X-Ok': 'a\r\nb' }, [], undefined, strict);
    expect(result.problems.map((p) => p.path).sort()).toEqual(['headers.Host', 'headers.X-Ok', 'headers.authorization']);
  });

  it('refuses every reference to a variable Toolplane reads itself, each by its path, unless allowed by name', () => {
    const env = {
      DB: '${env:PGPASSWORD}',
      TRACES: 'x ${env:OTEL_EXPORTER_OTLP_HEADERS} y',
      NODE: '${env:NODE_OPTIONS}',
      PROXY: '${env:https_proxy}',
      KEY: '${env:TOOLPLANE_ENCRYPTION_KEY}',
      TWO: '${env:PGUSER}:${env:PGHOST}',
      FINE: '${env:GITHUB_API_URL}',
    };
    const refused = checkVariables('env', env, [], undefined, strict).problems;
    expect(refused.map((p) => p.path)).toEqual(['env.DB', 'env.TRACES', 'env.NODE', 'env.PROXY', 'env.KEY', 'env.TWO', 'env.TWO']);
    expect(refused.map((p) => p.message).join('\n')).toContain('${env:OTEL_EXPORTER_OTLP_HEADERS}');
    const headers = checkVariables('headers', { Authorization: 'Bearer ${env:PGPASSWORD}' }, [], undefined, strict).problems;
    expect(headers).toEqual([{ path: 'headers.Authorization', message: expect.stringContaining('${env:PGPASSWORD}') }]);
    const allowed = checkVariables('env', env, [], undefined, envReferencePolicy(['PGPASSWORD', 'PGUSER', 'PGHOST', 'TOOLPLANE_ENCRYPTION_KEY'])).problems;
    expect(allowed.map((p) => p.path)).toEqual(['env.TRACES', 'env.NODE', 'env.PROXY', 'env.KEY']);
  });

  it('fills declared defaults for variables left out', () => {
    expect(withDeclaredDefaults({ A: '1' }, [decl('A', { default: '0' }), decl('B', { default: '2' }), decl('C')])).toEqual({ A: '1', B: '2' });
  });
});
