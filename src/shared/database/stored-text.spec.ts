import fc from 'fast-check';
import type { ExecutionRecord } from '../../modules/executions/domain/execution.js';
import { sha256Hex } from '../canonical-json.js';
import { anyText, canonicalInputs, sortedCopy } from '../../../test/helpers/sorted-copy.js';
import { columnTexts, columnValues, recordDigest, storedContent, storedRecordTexts } from '../../modules/executions/infrastructure/execution-chain-rows.js';
import { canonicalStoredJson, escapeUnstorable, holdsUnstorableText, isUnstorableText, storedJson, storedStrings, storedText } from './stored-text.js';

/** The definition the chain's digests were first computed with: a sorted copy through a replacer. */
const reference = (value: unknown) => JSON.stringify(sortedCopy(value), storedStrings);

const json = canonicalInputs();

const record = fc.record({
  id: fc.uuid(),
  toolId: fc.option(fc.uuid()),
  qualifiedName: anyText,
  sourceId: fc.option(fc.uuid()),
  sourceName: fc.option(anyText),
  definitionHash: fc.option(anyText),
  caller: fc.record({ principalId: anyText, principalName: fc.option(anyText, { nil: undefined }), clientName: fc.option(anyText, { nil: undefined }) }),
  channel: fc.constantFrom('rest' as const, 'mcp' as const),
  arguments: json,
  status: fc.constantFrom('succeeded' as const, 'tool_error' as const, 'timeout' as const),
  isError: fc.boolean(),
  result: fc.option(fc.record({ content: fc.array(json, { maxLength: 3 }), structuredContent: json, truncated: fc.boolean(), originalBytes: fc.nat() })),
  error: fc.option(fc.record({ code: anyText, message: anyText, retryable: fc.boolean(), details: fc.array(fc.record({ path: anyText, message: anyText }), { maxLength: 2 }) })),
  attempts: fc.integer({ min: 1, max: 3 }),
  startedAt: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
  durationMs: fc.double({ min: 0, max: 1e6, noNaN: true }),
}) as fc.Arbitrary<ExecutionRecord>;

describe('canonical stored JSON', () => {
  it('is the text the sorted copy through the storing replacer gives, for any JSON value and any text', () => {
    fc.assert(fc.property(json, (value) => expect(canonicalStoredJson(value)).toBe(reference(value))), { numRuns: 2000 });
  });

  it('stores NUL and lone surrogates as U+FFFD, keeps pairs, keys as given', () => {
    expect(canonicalStoredJson({ b: 'x\u0000y', a: ['\ud800', '😀'], 'k\u0000': 1 })).toBe('{"a":["\uFFFD","😀"],"b":"x\uFFFDy","k\\u0000":1}');
    expect(canonicalStoredJson({ z: undefined, f: () => 1, n: Number.NaN, list: [undefined] })).toBe('{"list":[null],"n":null}');
    // Array-index keys come first, in numeric order, as in any object the sorted copy was.
    const indexed = { b: 1, '10': 2, '': 3, '9': 4, '01': 5, '4294967295': 6, '4294967294': 7 };
    expect(canonicalStoredJson(indexed)).toBe(reference(indexed));
    expect(canonicalStoredJson(indexed)).toBe('{"9":4,"10":2,"4294967294":7,"":3,"01":5,"4294967295":6,"b":1}');
  });

  it('gives a record’s columns and digest in one pass, equal to those of the two-pass definition', () => {
    fc.assert(
      fc.property(record, (e) => {
        const texts = storedRecordTexts(e);
        expect(texts.digest).toBe(sha256Hex(reference(storedContent(e))));
        expect(texts.digest).toBe(recordDigest(storedContent(e)));
        // The columns hold the same JSON values as before (jsonb keeps values, not key order).
        expect(JSON.parse(texts.caller)).toEqual(JSON.parse(storedJson(e.caller)));
        expect(JSON.parse(texts.arguments)).toEqual(JSON.parse(storedJson(e.arguments ?? null)));
        expect(texts.result === null ? null : JSON.parse(texts.result)).toEqual(e.result === null ? null : JSON.parse(storedJson(e.result)));
        expect(texts.error === null ? null : JSON.parse(texts.error)).toEqual(e.error === null ? null : JSON.parse(storedJson(e.error)));
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same record from column texts serialized elsewhere (the worker thread, after a structured clone)', () => {
    fc.assert(
      fc.property(record, (e) => {
        const values = columnValues(e);
        const cloned = structuredClone(values).map((value) => canonicalStoredJson(value));
        expect(storedRecordTexts(e, columnTexts(values, cloned))).toEqual(storedRecordTexts(e));
      }),
      { numRuns: 200 },
    );
  });
});

describe('stored text', () => {
  it('replaces NUL and lone surrogates and keeps everything else, for any text', () => {
    const original = (value: string) => value.replaceAll('\u0000', '\uFFFD').replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 20 }), (value) => expect(storedText(value)).toBe(original(value))), { numRuns: 5000 });
    expect(storedText('a\u0000b\ud800c😀')).toBe('a\uFFFDb\uFFFDc😀');
    const plain = 'plain text';
    expect(storedText(plain)).toBe(plain);
  });
});

describe('unstorable text', () => {
  it('is NUL or a lone surrogate, in a key or a string at any depth; a pair is fine', () => {
    expect(isUnstorableText('plain')).toBe(false);
    expect(isUnstorableText('emoji \ud83d\ude00')).toBe(false);
    expect(isUnstorableText('cut \ud83d')).toBe(true);
    expect(isUnstorableText('\ude00 tail')).toBe(true);
    expect(isUnstorableText('a\u0000b')).toBe(true);
    expect(holdsUnstorableText({ a: [1, { b: 'ok' }] })).toBe(false);
    expect(holdsUnstorableText({ a: [1, { b: 'x\u0000' }] })).toBe(true);
    expect(holdsUnstorableText({ a: { 'k\ud800': 1 } })).toBe(true);
    expect(escapeUnstorable('a\u0000b\ud800')).toBe('a\\u0000b\\ud800');
  });

  it('counts containers deeper than the depth given, and only those', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 5; i++) deep = [deep];
    expect(holdsUnstorableText(deep, 5)).toBe(false);
    expect(holdsUnstorableText(deep, 4)).toBe(true);
    expect(holdsUnstorableText(deep)).toBe(false);
  });

  it('agrees with storedText: a value holds unstorable text exactly when storing it changes a string or a key', () => {
    const changedByStoring = (value: unknown): boolean =>
      typeof value === 'string'
        ? storedText(value) !== value
        : value !== null && typeof value === 'object' && Object.entries(value).some(([key, inner]) => storedText(key) !== key || changedByStoring(inner));
    fc.assert(
      fc.property(json, (value) => {
        expect(holdsUnstorableText(value)).toBe(changedByStoring(value));
      }),
      { numRuns: 500 },
    );
  });
});
