import type { UpstreamTarget } from '../modules/sources/domain/upstream.js';
import { describeUpstreamFailure, redact } from './describe-upstream-failure.js';
import { connectionFingerprint, endpointLabel, secretValues } from './upstream-endpoint.js';

const remote: UpstreamTarget = {
  secrets: [],
  sourceId: 's1',
  sourceName: 'remote',
  transport: 'streamable-http',
  lifecycle: 'transient',
  args: [],
  env: {},
  url: 'https://user:pa55word@api.example.com/mcp?key=query-secret#frag',
  headers: { Authorization: 'Bearer header-secret' },
};

describe('upstream endpoint helpers', () => {
  test('the label of a remote endpoint carries no credentials or query', () => {
    expect(endpointLabel(remote)).toBe('https://api.example.com/mcp');
    expect(secretValues(remote)).toEqual(expect.arrayContaining(['Bearer header-secret', 'pa55word', 'query-secret']));
  });

  test('the fingerprint changes with connection settings only', () => {
    const stdio: UpstreamTarget = { ...remote, transport: 'stdio', command: 'node', args: ['a.js'], env: { B: '2', A: '1' }, url: undefined };
    expect(connectionFingerprint(stdio)).toBe(connectionFingerprint({ ...stdio, env: { A: '1', B: '2' }, sourceName: 'renamed', era: 'modern' }));
    expect(connectionFingerprint(stdio)).not.toBe(connectionFingerprint({ ...stdio, env: { A: '1', B: '3' } }));
    expect(connectionFingerprint(stdio)).not.toBe(connectionFingerprint({ ...stdio, args: ['b.js'] }));
    expect(connectionFingerprint(remote)).not.toBe(connectionFingerprint({ ...remote, headers: { Authorization: 'Bearer other' } }));
  });

  test('secret values are redacted from any failure message', () => {
    expect(redact('sent Bearer header-secret to server', ['Bearer header-secret'])).toBe('sent [redacted] to server');
    const error = describeUpstreamFailure(new Error('server said: query-secret is invalid'), {
      phase: 'connecting',
      endpoint: endpointLabel(remote),
      secrets: secretValues(remote),
    });
    expect(error.message).toBe('connecting https://api.example.com/mcp failed: server said: [redacted] is invalid');
  });

  test('so are their base64, hex and percent-encoded forms', () => {
    const value = 'Bearer header-secret';
    for (const form of [Buffer.from(value).toString('base64'), Buffer.from(value).toString('hex'), encodeURIComponent(value), Buffer.from(`x:${value}`).toString('base64url')]) {
      expect(redact(`sent ${form} to server`, [value])).toMatch(/^sent [A-Za-z0-9]*\[redacted\][A-Za-z0-9]* to server$/);
    }
  });
});
