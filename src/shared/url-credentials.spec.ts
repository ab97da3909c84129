import fc from 'fast-check';
import { maskUrlCredentials, maskUrlCredentialsInText } from './url-credentials.js';

describe('maskUrlCredentials', () => {
  it('masks the values of credential-looking query parameters, keeping the rest', () => {
    expect(maskUrlCredentials('https://mcp.example.com/sse?api_key=s3cr3t&region=eu&TOKEN=abc&sig=x%2By')).toBe(
      'https://mcp.example.com/sse?api_key=***&region=eu&TOKEN=***&sig=***',
    );
    expect(maskUrlCredentials('http://127.0.0.1:8080/mcp?apiKey=1&apiKey=2')).toBe('http://127.0.0.1:8080/mcp?apiKey=***');
  });

  it('leaves URLs without such parameters, and text that is not a URL, exactly as they are', () => {
    for (const url of ['http://127.0.0.1:8080/mcp', 'https://x.example/mcp?region=eu&page=2', 'not a url ?token=1', '']) {
      expect(maskUrlCredentials(url)).toBe(url);
    }
    expect(maskUrlCredentials(null)).toBeNull();
  });

  it('never shows a credential value, whatever it is (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom('api_key', 'token', 'access_token', 'password', 'secret', 'key'), fc.string({ minLength: 4 }), (name, value) => {
        const url = `https://mcp.example.com/mcp?${name}=${encodeURIComponent(value)}&other=1`;
        const masked = maskUrlCredentials(url);
        expect(new URL(masked).searchParams.get(name)).toBe('***');
        expect(new URL(masked).searchParams.get('other')).toBe('1');
      }),
    );
  });

  it('masks every URL inside a text', () => {
    expect(maskUrlCredentialsInText('POST http://h.example/mcp?token=abc failed: 401 (see "https://h.example/x?sig=1&a=2")')).toBe(
      'POST http://h.example/mcp?token=*** failed: 401 (see "https://h.example/x?sig=***&a=2")',
    );
  });
});
