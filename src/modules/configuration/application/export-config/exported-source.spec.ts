import fc from 'fast-check';
import { STORED_VALUE } from '../../domain/config-plan.js';
import { exportedSource, exportedValue } from './exported-source.js';
import { aRemoteSource } from '../../../sources/testing/builders.js';

describe('exportedValue', () => {
  const secret = { name: 'TOKEN', isRequired: true, isSecret: true };
  const plain = { name: 'LEVEL', isRequired: false, isSecret: false };

  it('keeps references and what a manifest declares not secret, and nothing else literal', () => {
    expect(exportedValue('${secret:GITHUB_TOKEN}', undefined)).toBe('${secret:GITHUB_TOKEN}');
    expect(exportedValue('${env:HOME}/data', undefined)).toBe(STORED_VALUE);
    expect(exportedValue('Bearer ${secret:API}', undefined)).toBe('Bearer ${secret:API}');
    expect(exportedValue('debug', plain)).toBe('debug');
    expect(exportedValue('sk-live-123', undefined)).toBe(STORED_VALUE);
    expect(exportedValue('sk-live-123', secret)).toBe(STORED_VALUE);
    expect(exportedValue('Bearer sk-live-123', undefined)).toBe(STORED_VALUE);
    expect(exportedValue('', undefined)).toBe('');
  });

  it('never writes literal text of an undeclared value, beside an auth scheme', () => {
    const literal = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !s.includes('${') && !/^\s*(Bearer|Basic|Token|Bot|ApiKey)\s*$/i.test(s));
    const reference = fc.constantFrom('${secret:A}', '${env:B}', '');
    fc.assert(
      fc.property(literal, reference, literal, (before, ref, after) => {
        const exported = exportedValue(`${before}${ref}${after}`, undefined);
        expect(exported).toBe(STORED_VALUE);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('exportedSource', () => {
  it("writes a per-user source's upstreamAuth and its ${user-secret:…} references, never its discovery principal", () => {
    const source = aRemoteSource({ headers: { Authorization: 'Bearer ${user-secret:T}' }, upstreamAuth: { mode: 'user-secret' }, discoveryPrincipal: { id: 'key-1', name: 'alice' } }).snapshot();
    const exported = exportedSource(source);
    expect(exported).toMatchObject({ headers: { Authorization: 'Bearer ${user-secret:T}' }, upstreamAuth: { mode: 'user-secret' } });
    expect(JSON.stringify(exported)).not.toContain('key-1');
    expect(exportedSource(aRemoteSource().snapshot())).not.toHaveProperty('upstreamAuth');
  });
});
