/**
 * An http(s) URL as Toolplane reaches it (a remote source, an interceptor's webhook): parsed, or
 * why not. User info in it is refused (`credentials`): a credential belongs in a sealed value.
 */
export function parseRemoteUrl(text: string): { url: URL } | { problem: string; credentials?: true } {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return { problem: 'is not a valid URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { problem: `must use http or https, not ${parsed.protocol.replace(':', '')}` };
  if (parsed.username || parsed.password) return { problem: 'must not embed credentials', credentials: true };
  return { url: parsed };
}
