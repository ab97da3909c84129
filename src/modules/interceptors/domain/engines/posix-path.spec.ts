import fc from 'fast-check';
import { posix } from 'node:path';
import { isUnder, normalisePath, suspiciousPath } from './posix-path.js';

/** Paths made of the pieces that matter: separators, `.`, `..`, names that look like them. */
const segment = fc.constantFrom('', '.', '..', '...', '..a', 'a..', '.a', 'a', 'b', 'srv', 'data', 'database', 'etc', ' ', 'x y');
const path = fc.oneof(
  fc.tuple(fc.boolean(), fc.array(segment, { maxLength: 10 }), fc.boolean()).map(([absolute, segments, trailing]) => `${absolute ? '/' : ''}${segments.join('/')}${trailing ? '/' : ''}`),
  fc.string({ unit: fc.constantFrom('/', '.', 'a', 'b') , maxLength: 20 }),
  fc.string({ maxLength: 30 }),
);

/** Node's own resolution against the root, and containment by what is left to walk from the prefix. */
const reference = (value: string) => posix.resolve('/', value);
const referenceUnder = (value: string, prefix: string) => {
  const relative = posix.relative(reference(prefix), reference(value));
  return relative === '' || (relative !== '..' && !relative.startsWith('../') && !posix.isAbsolute(relative));
};

describe('normalisePath', () => {
  test.each([
    ['/srv/data/../etc', '/srv/etc'],
    ['/srv//data/./x/', '/srv/data/x'],
    ['etc/passwd', '/etc/passwd'],
    ['../../etc', '/etc'],
    ['/..', '/'],
    ['', '/'],
    ['/a/.../b', '/a/.../b'],
  ])('%s → %s', (value, expected) => expect(normalisePath(value)).toBe(expected));

  it('resolves as POSIX does against the root (node:path as the reference)', () => {
    fc.assert(fc.property(path, (value) => normalisePath(value) === reference(value)), { numRuns: 2000 });
  });

  it('is idempotent', () => {
    fc.assert(fc.property(path, (value) => normalisePath(normalisePath(value)) === normalisePath(value)), { numRuns: 2000 });
  });

  it('never escapes the root: absolute, without `.`, `..` or empty segments', () => {
    fc.assert(
      fc.property(path, (value) => {
        const normal = normalisePath(value);
        expect(normal.startsWith('/')).toBe(true);
        if (normal !== '/') expect(normal.slice(1).split('/').every((part) => part !== '' && part !== '.' && part !== '..')).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isUnder', () => {
  test.each([
    ['/srv/data/x', '/srv/data', true],
    ['/srv/data', '/srv/data', true],
    ['/srv/database', '/srv/data', false],
    ['/srv/data/../etc', '/srv/data', false],
    ['/anything', '/', true],
  ])('%s under %s: %s', (value, prefix, expected) => expect(isUnder(normalisePath(value), normalisePath(prefix))).toBe(expected));

  it('agrees with a reference check on normalised paths', () => {
    fc.assert(fc.property(path, path, (value, prefix) => isUnder(normalisePath(value), normalisePath(prefix)) === referenceUnder(value, prefix)), { numRuns: 3000 });
  });
});

describe('suspiciousPath', () => {
  test.each([
    ['/srv/data/\0/etc', 'holds a NUL byte'],
    ['/srv/data/%2e%2e/etc', 'is percent-encoded'],
    ['/srv/data/..%2Fetc', 'is percent-encoded'],
    ['/srv/data\\..\\etc', 'holds a backslash'],
    ['~/.ssh/id_rsa', 'starts with ~'],
  ])('%s', (value, reason) => expect(suspiciousPath(value)).toBe(reason));

  it('lets a plain path with a percent sign that encodes nothing through', () => {
    expect(suspiciousPath('/srv/data/100%/report')).toBeUndefined();
  });
});
