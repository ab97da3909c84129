/** Patterns shared by the manifest schemas, with the message shown when a value misses one. */
export const ENV_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';
/** An HTTP header field name (RFC 9110 token). */
export const HEADER_NAME_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";
export const SERVER_NAME_PATTERN = '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$';
export const HTTP_URL_PATTERN = '^https?://[^\\s]+$';
export const SHA256_PATTERN = '^[a-f0-9]{64}$';
/** Command names and runtimes: one word, no whitespace or NUL. */
export const WORD_PATTERN = '^[^\\s\\u0000]+$';
/** Anything that ends up in argv or an environment value: the OS rejects NUL there. */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';
/** The registry rejects `latest` as a package version: it must name a specific one. */
export const SPECIFIC_VERSION_PATTERN = '^(?!latest$)\\S+$';

export const PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  [ENV_NAME_PATTERN]: 'must be a valid environment variable name (letters, digits and _, not starting with a digit)',
  [HEADER_NAME_PATTERN]: 'must be a valid HTTP header name (no spaces, colons or control characters)',
  [SERVER_NAME_PATTERN]: "must look like 'namespace/name', e.g. 'io.github.user/weather'",
  [HTTP_URL_PATTERN]: 'must be an http:// or https:// URL without spaces',
  [SHA256_PATTERN]: 'must be a SHA-256 hash in lowercase hex (64 characters)',
  [WORD_PATTERN]: 'must be a single word without spaces',
  [NO_NUL_PATTERN]: 'must not contain NUL characters',
  [SPECIFIC_VERSION_PATTERN]: 'must name one specific version: no spaces, not "latest"',
};
