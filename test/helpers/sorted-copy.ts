import fc from 'fast-check';

/**
 * The first definition of canonical JSON, kept as the reference the one-pass writers are checked
 * against: a copy with keys sorted at every depth (undefined members left out), for JSON.stringify.
 */
export function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .map((key) => [key, sortedCopy((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** Any text, lone surrogates and NUL included. */
export const anyText = fc.string({ unit: 'binary', maxLength: 12 });

/**
 * Values for the canonical writers' property tests: JSON data (with undefined members, and keys
 * that are array indexes or prototype names), and with `dates` Date objects too.
 */
export function canonicalInputs({ dates = false }: { dates?: boolean } = {}): fc.Arbitrary<unknown> {
  return fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      anyText,
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      ...(dates ? [fc.date({ noInvalidDate: true })] : []),
      tie('array'),
      tie('object'),
    ),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(fc.oneof(anyText, fc.constantFrom('__proto__', 'constructor', '', 'a', 'B', '10', '9', '01')), tie('value'), { maxKeys: 5 }),
  })).value;
}
