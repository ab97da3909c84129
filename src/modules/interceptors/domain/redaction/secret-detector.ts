import { ALPHANUMERIC, charSet, isLower, isUpper, runEnd, type Detector } from './detector.js';

const UPPER_OR_DIGIT = charSet('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
const ALNUM = charSet(ALPHANUMERIC);
const ALNUM_UNDERSCORE = charSet(`${ALPHANUMERIC}_`);
const ALNUM_DASH = charSet(`${ALPHANUMERIC}-`);
const BASE64URL = charSet(`${ALPHANUMERIC}_-`);
/** RFC 6750's b64token. */
const BEARER_TOKEN = charSet(`${ALPHANUMERIC}-._~+/=`);
const BLANK = charSet(' \t');
const PEM_LABEL = charSet('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ');
/** What a PEM body without its END line is masked through: base64 and line breaks. */
const PEM_BODY = charSet(`${ALPHANUMERIC}+/=\r\n`);

/**
 * Where a secret may start: literal prefixes only (no quantifier), so the search is linear; each
 * place found is then checked by hand.
 */
const PREFIXES = /AKIA|ASIA|gh[pousr]_|github_pat_|xox[abposr]-|[spr]k_(?:live|test)_|sk-|AIza|eyJ|-----BEGIN |[Bb]earer[ \t]|BEARER[ \t]/g;

/** Characters that continue a token: a prefix right after one is inside it, not at its start. */
const TOKEN_CHARACTER = charSet(`${ALPHANUMERIC}_-`);

/**
 * Secrets by their shape: AWS access key ids (AKIA…, ASIA…), GitHub tokens (ghp_, gho_, ghu_, ghs_,
 * ghr_, github_pat_), Slack tokens (xoxb- …), Stripe keys (sk_live_, rk_live_, pk_live_ and their
 * _test_ twins), `sk-…` API keys (OpenAI, Anthropic), Google API keys (AIza…), JWTs, PEM private key
 * blocks (to their END line, or through the key's text when it has none), and the token of
 * `Bearer <token>` (the word stays). Linear time: every place is checked over a bounded length or
 * a run of the secret's own characters, which a later place inside it cannot scan again.
 */
export class SecretDetector implements Detector {
  readonly kind = 'secret';

  find(text: string): number[] {
    const spans: number[] = [];
    // One search at a time (find runs to its end synchronously): the expression is shared.
    const prefixes = PREFIXES;
    prefixes.lastIndex = 0;
    const pemEnds: PemEnds = { from: -1, at: -1 };
    for (let found = prefixes.exec(text); found !== null; found = prefixes.exec(text)) {
      const start = found.index;
      const prefix = found[0];
      const span = prefix === '-----BEGIN ' ? pemBlock(text, start, pemEnds) : start > 0 && TOKEN_CHARACTER(text.charCodeAt(start - 1)) ? undefined : token(text, start, prefix);
      if (span) {
        spans.push(span[0], span[1]);
        prefixes.lastIndex = span[1];
      } else prefixes.lastIndex = start + 1;
    }
    return spans;
  }
}

type Span = [start: number, end: number];

function token(text: string, start: number, prefix: string): Span | undefined {
  const after = start + prefix.length;
  switch (prefix.slice(0, 2)) {
    case 'AK':
    case 'AS': {
      // Exactly 16 more, then no further character of a token.
      const end = runEnd(text, after, UPPER_OR_DIGIT, 17);
      return end - after === 16 ? [start, end] : undefined;
    }
    case 'gh':
      return atLeast(text, start, after, ALNUM, 30);
    case 'gi':
      return atLeast(text, start, after, ALNUM_UNDERSCORE, 30);
    case 'xo':
      return atLeast(text, start, after, ALNUM_DASH, 10);
    case 'sk':
      return prefix === 'sk-' ? atLeast(text, start, after, BASE64URL, 20) : atLeast(text, start, after, ALNUM, 16);
    case 'rk':
    case 'pk':
      return atLeast(text, start, after, ALNUM, 16);
    case 'AI':
      return atLeast(text, start, after, BASE64URL, 35);
    case 'ey':
      return jwt(text, start);
    default:
      return bearer(text, after);
  }
}

function atLeast(text: string, start: number, after: number, inRun: (code: number) => boolean, minimum: number): Span | undefined {
  const end = runEnd(text, after, inRun);
  return end - after >= minimum ? [start, end] : undefined;
}

/** Three base64url segments joined by dots, the first (`eyJ…`, a JSON header) of at least 10 characters, the second of at least 4. */
function jwt(text: string, start: number): Span | undefined {
  const header = runEnd(text, start, BASE64URL);
  if (header - start < 10 || text.charCodeAt(header) !== DOT) return undefined;
  const payload = runEnd(text, header + 1, BASE64URL);
  if (payload - header - 1 < 4 || text.charCodeAt(payload) !== DOT) return undefined;
  return [start, runEnd(text, payload + 1, BASE64URL)];
}

const DOT = 0x2e;

/**
 * The token after `Bearer `: at least 8 characters of a b64token with a digit, a symbol or two
 * letters of each case, so that prose ("Bearer authentication") stays.
 */
function bearer(text: string, after: number): Span | undefined {
  const start = runEnd(text, after, BLANK);
  const end = runEnd(text, start, BEARER_TOKEN);
  if (end - start < 8) return undefined;
  let upper = 0;
  let lower = 0;
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (isUpper(code)) upper++;
    else if (isLower(code)) lower++;
    else return [start, end]; // a digit or a symbol
  }
  return upper >= 2 && lower >= 2 ? [start, end] : undefined;
}

/** Where the next `-----END ` was found, searched from `from` (-1: not searched yet; `at` -1: there is none). */
interface PemEnds {
  from: number;
  at: number;
}

/** `-----BEGIN … PRIVATE KEY-----` through its END line, or through the key's base64 text when there is none. */
function pemBlock(text: string, start: number, ends: PemEnds): Span | undefined {
  const header = pemLabelEnd(text, start + '-----BEGIN '.length);
  if (header === -1) return undefined;
  // The places come in order: a search starts only beyond the END found last, so the text is searched once in all.
  const known = ends.from !== -1 && (ends.at === -1 || ends.at >= header);
  if (!known) {
    ends.from = header;
    ends.at = text.indexOf('-----END ', header);
  }
  if (ends.at !== -1) {
    const end = pemLabelEnd(text, ends.at + '-----END '.length);
    if (end !== -1) return [start, end];
  }
  return [start, runEnd(text, header, PEM_BODY)];
}

/** Where `<label> PRIVATE KEY-----` that starts at `from` ends, or -1. */
function pemLabelEnd(text: string, from: number): number {
  const labelEnd = runEnd(text, from, PEM_LABEL, 64);
  if (!text.slice(from, labelEnd).endsWith('PRIVATE KEY') || !text.startsWith('-----', labelEnd)) return -1;
  return labelEnd + 5;
}
