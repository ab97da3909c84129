/**
 * Letters of other scripts that look like Latin ones (Cyrillic, Greek, a few Latin variants),
 * each with the lowercase Latin letter it imitates. Fullwidth ASCII (U+FF01–FF5E) is folded by
 * arithmetic.
 */
const LOOKALIKES: Record<string, string> = {
  // Cyrillic
  а: 'a', А: 'a', в: 'b', В: 'b', с: 'c', С: 'c', ԁ: 'd', е: 'e', Е: 'e', ё: 'e', Ё: 'e', һ: 'h', Н: 'h', н: 'h',
  і: 'i', І: 'i', ї: 'i', ј: 'j', Ј: 'j', к: 'k', К: 'k', ӏ: 'l', Ӏ: 'l', м: 'm', М: 'm', о: 'o', О: 'o', р: 'p', Р: 'p',
  ԛ: 'q', ѕ: 's', Ѕ: 's', т: 't', Т: 't', у: 'y', У: 'y', ԝ: 'w', Ԝ: 'w', х: 'x', Х: 'x', ь: 'b', Ь: 'b',
  // Greek
  α: 'a', Α: 'a', β: 'b', Β: 'b', ε: 'e', Ε: 'e', Ζ: 'z', η: 'n', Η: 'h', ι: 'i', Ι: 'i', κ: 'k', Κ: 'k', Μ: 'm',
  ν: 'v', Ν: 'n', ο: 'o', Ο: 'o', ρ: 'p', Ρ: 'p', τ: 't', Τ: 't', υ: 'u', Υ: 'y', χ: 'x', Χ: 'x', ω: 'w',
  // Latin variants
  ı: 'i', ɡ: 'g', ℓ: 'l', ɑ: 'a',
};

const LOOKALIKE_CODES = new Map<number, number>(
  Object.entries(LOOKALIKES)
    .filter(([from]) => from.length === 1)
    .map(([from, to]) => [from.charCodeAt(0), to.charCodeAt(0)]),
);

/** The Latin letter a character imitates (its code), or undefined when it imitates none. */
function imitated(code: number): number | undefined {
  if (code >= 0xff01 && code <= 0xff5e) {
    const ascii = code - 0xfee0;
    return ascii >= 0x41 && ascii <= 0x5a ? ascii + 32 : ascii;
  }
  return LOOKALIKE_CODES.get(code);
}

/** Whether a text has any character besides printable ASCII and line breaks (a control character needs the slow path too). */
const NON_ASCII = /[^ -~\t\n\r]/;

/**
 * The text in lowercase, with letters of other scripts that imitate Latin ones replaced by those,
 * one UTF-16 unit for one, so an offset into the result is an offset into the text.
 */
export function foldedForMatching(text: string): string {
  const lower = text.toLowerCase();
  if (!NON_ASCII.test(text)) return lower;
  const sameLength = lower.length === text.length;
  const codes = new Array<number>(text.length);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const latin = imitated(code);
    if (latin !== undefined) codes[index] = latin;
    else if (code >= 0x41 && code <= 0x5a) codes[index] = code + 32;
    else codes[index] = sameLength ? lower.charCodeAt(index) : code;
  }
  let out = '';
  for (let start = 0; start < codes.length; start += 8192) out += String.fromCharCode(...codes.slice(start, start + 8192));
  return out;
}

/** Whether a name uses a letter of another script that imitates a Latin one. */
export function hasLookalikeLetter(name: string): boolean {
  for (let index = 0; index < name.length; index++) {
    const code = name.charCodeAt(index);
    if (code >= 0x80 && imitated(code) !== undefined) return true;
  }
  return false;
}

/** A tool name as it reads to the eye: lowercase, imitating letters folded, 0 read as o and 1 as l. */
export function nameAsSeen(name: string): string {
  const folded = foldedForMatching(name);
  let out = '';
  for (let index = 0; index < folded.length; index++) {
    const char = folded[index]!;
    out += char === '0' ? 'o' : char === '1' ? 'l' : char;
  }
  return out;
}
