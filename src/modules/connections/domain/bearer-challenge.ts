/**
 * Reads the `resource_metadata` parameter (RFC 9728 §5.1) of a `Bearer` challenge in a
 * WWW-Authenticate header (RFC 9110 §11.6.1: challenges separated by commas, each a scheme and
 * auth-params of token or quoted-string values). Anything malformed answers undefined: the caller
 * then falls back to the well-known location.
 */
export function resourceMetadataOf(header: string | null | undefined): string | undefined {
  if (typeof header !== 'string' || header.length > 8192) return undefined;
  for (const challenge of parseChallenges(header) ?? []) {
    if (challenge.scheme.toLowerCase() !== 'bearer') continue;
    const value = challenge.params.get('resource_metadata');
    if (value !== undefined) return value;
  }
  return undefined;
}

interface Challenge {
  scheme: string;
  params: Map<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;
const TOKEN68 = /^[A-Za-z0-9._~+/-]+=*/;

/** The challenges of a header, or undefined when it does not parse. */
export function parseChallenges(header: string): Challenge[] | undefined {
  const challenges: Challenge[] = [];
  let rest = header;
  const skipSpace = () => {
    rest = rest.replace(/^[ \t]+/, '');
  };
  skipSpace();
  while (rest.length > 0) {
    if (rest.startsWith(',')) {
      rest = rest.slice(1);
      skipSpace();
      continue;
    }
    const scheme = TOKEN.exec(rest)?.[0];
    if (!scheme) return undefined;
    rest = rest.slice(scheme.length);
    const challenge: Challenge = { scheme, params: new Map() };
    challenges.push(challenge);
    if (rest.length > 0 && !/^[ \t,]/.test(rest)) return undefined;
    skipSpace();
    // auth-params (name=value, comma separated) until the next scheme; or one token68.
    for (;;) {
      const name = TOKEN.exec(rest)?.[0];
      if (!name) break;
      const afterName = rest.slice(name.length).replace(/^[ \t]*/, '');
      if (!afterName.startsWith('=')) break; // the next challenge's scheme
      if (/^=+[ \t]*(,|$)/.test(afterName) && challenge.params.size === 0 && TOKEN68.test(rest)) {
        // a token68 (e.g. "Basic abc=="): skip it
        rest = rest.slice(TOKEN68.exec(rest)![0].length);
        break;
      }
      rest = afterName.slice(1).replace(/^[ \t]*/, '');
      let value: string;
      if (rest.startsWith('"')) {
        const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
        if (!quoted) return undefined;
        value = quoted[1]!.replace(/\\(.)/g, '$1');
        rest = rest.slice(quoted[0].length);
      } else {
        // A token by the grammar; servers also send bare URLs (with ':' and '/'), taken up to a space or comma.
        const token = /^[^\s,"\\]+/.exec(rest)?.[0];
        if (!token) return undefined;
        value = token;
        rest = rest.slice(token.length);
      }
      const key = name.toLowerCase();
      if (!challenge.params.has(key)) challenge.params.set(key, value);
      skipSpace();
      if (rest.startsWith(',')) {
        rest = rest.slice(1);
        skipSpace();
      } else if (rest.length > 0) {
        return undefined;
      }
    }
  }
  return challenges;
}
