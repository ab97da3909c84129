import fc from 'fast-check';
import { isScope, readProtectedResourceMetadata } from './protected-resource-metadata.js';

const upstream = new URL('https://mcp.example.com/mcp');

describe('readProtectedResourceMetadata', () => {
  it('takes a well-formed document of the upstream’s origin', () => {
    expect(
      readProtectedResourceMetadata({ resource: 'https://mcp.example.com/mcp', authorization_servers: ['https://as.example.com'], scopes_supported: ['mcp:tools'], extra: 1 }, upstream),
    ).toEqual({ metadata: { resource: 'https://mcp.example.com/mcp', authorizationServers: ['https://as.example.com'], scopesSupported: ['mcp:tools'] } });
    expect(readProtectedResourceMetadata({ resource: 'https://mcp.example.com/', authorization_servers: ['http://127.0.0.1:9/'] }, upstream)).toMatchObject({ metadata: { scopesSupported: [] } });
  });

  it('lists every problem at once', () => {
    expect(readProtectedResourceMetadata({ resource: 'https://evil.example/mcp', authorization_servers: [], scopes_supported: ['a b'] }, upstream)).toEqual({
      problems: [
        'resource "https://evil.example/mcp" is not of the upstream\'s origin https://mcp.example.com',
        'authorization_servers must list 1 to 32 issuers',
        'scopes_supported must be a list of scope tokens',
      ],
    });
    expect(readProtectedResourceMetadata({ resource: 'ftp://x', authorization_servers: ['javascript:alert(1)'] }, upstream)).toEqual({
      problems: ['resource must be an absolute http(s) URL', 'authorization_servers must hold absolute http(s) URLs'],
    });
    expect(readProtectedResourceMetadata([1], upstream)).toEqual({ problems: ['the protected resource metadata is not a JSON object'] });
  });

  it('never throws on foreign JSON, and whatever it takes holds only http(s) URLs and scope tokens', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const likely = fc.record(
      {
        resource: fc.oneof(json, fc.constantFrom('https://mcp.example.com/mcp', 'https://mcp.example.com:443/x', 'https://user:pw@mcp.example.com/')),
        authorization_servers: fc.oneof(json, fc.array(fc.oneof(fc.webUrl(), fc.string()), { maxLength: 40 })),
        scopes_supported: fc.oneof(json, fc.array(fc.string(), { maxLength: 5 })),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(json, likely), (body) => {
        const read = readProtectedResourceMetadata(body, upstream);
        if ('metadata' in read) {
          expect(new URL(read.metadata.resource).origin).toBe(upstream.origin);
          for (const server of read.metadata.authorizationServers) expect(['http:', 'https:']).toContain(new URL(server).protocol);
          expect(read.metadata.authorizationServers.length).toBeGreaterThan(0);
          expect(read.metadata.scopesSupported.every(isScope)).toBe(true);
        } else {
          expect(read.problems.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
