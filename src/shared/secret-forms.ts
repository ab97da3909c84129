/**
 * The spellings a secret value can take in text an upstream sends back: as is, percent-encoded,
 * hex, and base64. Each is what an encoder makes of the value's UTF-8 bytes; for base64 also the
 * part that survives inside a longer encoded text, whatever comes before or after the value.
 */
export function secretForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const forms = [value];
  // A value of letters, digits and `-_.` is itself as a URL component and in a form.
  for (const escapes of NEVER_KEPT.test(value) ? PERCENT_ENCODINGS : EVERY_BYTE_ESCAPED) forms.push(percentEncoded(bytes, escapes));
  const hex = bytes.toString('hex');
  forms.push(hex, hex.toUpperCase());
  const whole = bytes.toString('base64');
  const base64 = [whole, whole.replace(/=+$/, ''), base64Core(bytes, 0), base64Core(bytes, 1), base64Core(bytes, 2)];
  forms.push(...base64, ...base64.map((standard) => standard.replaceAll('+', '-').replaceAll('/', '_')));
  return [...new Set(forms)];
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** What each byte becomes when percent-encoded with `kept` left as is and `digits` for escapes. */
function escapesOf(kept: string, digits: string, spaceAsPlus = false): string[] {
  return Array.from({ length: 256 }, (_, byte) => {
    const character = String.fromCharCode(byte);
    if (byte < 128 && kept.includes(character)) return character;
    if (spaceAsPlus && byte === 0x20) return '+';
    return `%${digits[byte >> 4]}${digits[byte & 15]}`;
  });
}

const EVERY_BYTE_ESCAPED = ['0123456789ABCDEF', '0123456789abcdef'].map((digits) => escapesOf('', digits));
const PERCENT_ENCODINGS = [
  ...EVERY_BYTE_ESCAPED,
  ...['0123456789ABCDEF', '0123456789abcdef'].flatMap((digits) => [
    // What encodeURIComponent leaves as is.
    escapesOf(`${ALPHANUMERIC}-_.!~*'()`, digits),
    // application/x-www-form-urlencoded (URLSearchParams): a space becomes `+`.
    escapesOf(`${ALPHANUMERIC}*-._`, digits, true),
  ]),
];
/** A character both of those escape. */
const NEVER_KEPT = /[^A-Za-z0-9\-_.]/;

function percentEncoded(bytes: Uint8Array, escapes: readonly string[]): string {
  let encoded = '';
  for (let index = 0; index < bytes.length; index++) encoded += escapes[bytes[index]!]!;
  return encoded;
}

/**
 * The characters of base64(<`before` bytes> + bytes + <anything>) that carry bits of `bytes` only:
 * the same wherever the value sits in a longer encoded text with that alignment.
 */
function base64Core(bytes: Uint8Array, before: number): string {
  const shifted = Buffer.alloc(before + bytes.length);
  shifted.set(bytes, before);
  const first = Math.ceil((8 * before) / 6);
  const end = Math.floor((8 * (before + bytes.length)) / 6);
  return shifted.toString('base64').slice(first, end);
}
