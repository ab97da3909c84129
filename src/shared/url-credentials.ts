/** Query parameter names that carry credentials by the usual conventions. */
const CREDENTIAL_PARAM = /^(api[-_]?key|apikey|key|access[-_]?key|token|access[-_]?token|auth|auth[-_]?token|authorization|bearer|secret|client[-_]?secret|password|passwd|pwd|sig|signature|session|session[-_]?id|credentials?|x[-_]api[-_]key|private[-_]?key)$/i;

/** What stands in for a masked value. */
export const MASK = '***';

/**
 * The URL with the values of credential-looking query parameters (`api_key`, `token`, `sig`, …)
 * replaced by `***`, for answers, audit details and logs; the URL itself is used unchanged to
 * connect. Text that is not a URL is returned as it is.
 */
export function maskUrlCredentials(url: string): string;
export function maskUrlCredentials(url: string | null): string | null;
export function maskUrlCredentials(url: string | null): string | null {
  if (url === null || !url.includes('?')) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  let masked = false;
  for (const name of new Set(parsed.searchParams.keys())) {
    if (CREDENTIAL_PARAM.test(name)) {
      parsed.searchParams.set(name, MASK);
      masked = true;
    }
  }
  return masked ? parsed.toString().replaceAll(encodeURIComponent(MASK), MASK) : url;
}

/** Every http(s) URL inside a text (an error message, a log line) with its credential values masked. */
export function maskUrlCredentialsInText(text: string): string {
  if (!text.includes('?')) return text;
  return text.replace(/https?:\/\/[^\s"'<>]+/g, (url) => maskUrlCredentials(url));
}
