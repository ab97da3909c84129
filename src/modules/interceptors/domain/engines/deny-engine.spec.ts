import { RE2JS } from 're2js';
import type { DenyRule } from '../interceptor.js';
import { anInterceptedCall, anInterceptor } from '../../testing/engine-fixtures.js';
import { DenyEngine } from './deny-engine.js';

describe('DenyEngine', () => {
  const engine = new DenyEngine();
  const denying = (...rules: DenyRule[]) => anInterceptor('deny', { rules });
  const run = (rules: DenyRule[], args: Record<string, unknown>, qualifiedName = 'fs__read_file') =>
    engine.run(denying(...rules), 'pre', anInterceptedCall({ arguments: args, tool: { qualifiedName } }));

  it('denies the tools a rule names by pattern, with its message, and allows the others', () => {
    const rules = [{ tools: ['fs__write*', '*__delete_*'], message: 'Writing is off.' }];
    expect(run(rules, {}, 'fs__write_file')).toEqual({ decision: 'deny', message: 'Writing is off.' });
    expect(run(rules, {}, 'github__delete_repo')).toEqual({ decision: 'deny', message: 'Writing is off.' });
    expect(run(rules, {}, 'fs__read_file')).toEqual({ decision: 'allow' });
  });

  it('denies by the first rule that matches, naming the argument path', () => {
    const rules: DenyRule[] = [
      { tools: ['github__*'], argument: 'repo', equals: 'acme/secret', message: 'Not that repository.' },
      { argument: 'repo', pattern: '^acme/', message: 'No acme repositories.' },
    ];
    expect(run(rules, { repo: 'acme/secret' }, 'github__get')).toEqual({ decision: 'deny', message: 'Not that repository.', details: [{ path: 'arguments.repo', message: 'Not that repository.' }] });
    expect(run(rules, { repo: 'acme/secret' }, 'fs__get')).toMatchObject({ decision: 'deny', message: 'No acme repositories.' });
    expect(run(rules, { repo: 'other/x' }, 'github__get')).toEqual({ decision: 'allow' });
  });

  it('compares `equals` as JSON, key order aside', () => {
    const rules = [{ argument: 'options', equals: { force: true, depth: 1 }, message: 'No forcing.' }];
    expect(run(rules, { options: { depth: 1, force: true } }).decision).toBe('deny');
    expect(run(rules, { options: { depth: 1, force: false } }).decision).toBe('allow');
    expect(run([{ argument: 'n', equals: 1, message: 'm' }], { n: '1' }).decision).toBe('allow');
  });

  it('matches `pattern` in RE2 against strings only', () => {
    const rules = [{ argument: 'query', pattern: String.raw`(?i)\bdrop\s+table\b`, message: 'No DDL.' }];
    expect(run(rules, { query: 'select 1; DROP  TABLE users' }).decision).toBe('deny');
    expect(run(rules, { query: 'select dropped_tables from t' }).decision).toBe('allow');
    expect(run(rules, { query: 42 }).decision).toBe('allow');
  });

  it('compiles a rule’s pattern once per interceptor, not per call', () => {
    const interceptor = denying({ argument: 'query', pattern: '^x+$', message: 'm' });
    const compile = RE2JS.compile;
    let compiled = 0;
    RE2JS.compile = (...args: Parameters<typeof compile>) => {
      compiled++;
      return compile.apply(RE2JS, args);
    };
    try {
      for (let call = 0; call < 5; call++) expect(engine.run(interceptor, 'pre', anInterceptedCall({ arguments: { query: 'xxx' } })).decision).toBe('deny');
      expect(compiled).toBe(1);
    } finally {
      RE2JS.compile = compile;
    }
  });

  it('finds a dotted path into objects and arrays', () => {
    const rules = [{ argument: 'options.files.1.path', pathUnder: '/etc', message: 'Not /etc.' }];
    expect(run(rules, { options: { files: [{ path: '/tmp/a' }, { path: '/etc/passwd' }] } })).toEqual({
      decision: 'deny',
      message: 'Not /etc.',
      details: [{ path: 'arguments.options.files.1.path', message: 'Not /etc.' }],
    });
    expect(run(rules, { options: { files: [{ path: '/etc/passwd' }] } }).decision).toBe('allow');
  });

  it('does not judge an argument the call leaves out; an argument rule without a condition denies any value', () => {
    expect(run([{ argument: 'path', pathOutside: '/srv/data', message: 'm' }], {}).decision).toBe('allow');
    expect(run([{ argument: 'force', message: 'Never force.' }], { force: false })).toMatchObject({ decision: 'deny', message: 'Never force.' });
    expect(run([{ argument: 'force', message: 'Never force.' }], {}).decision).toBe('allow');
  });

  describe('pathUnder and pathOutside', () => {
    const outside = [{ argument: 'path', pathOutside: '/srv/data', message: 'Only /srv/data.' }];
    const under = [{ argument: 'path', pathUnder: '/etc/', message: 'Not /etc.' }];

    test.each([
      ['/srv/data/report.txt', 'allow'],
      ['/srv/data', 'allow'],
      ['/srv//data/./x/../y', 'allow'],
      ['/srv/data/../etc/passwd', 'deny'],
      ['/srv/database/x', 'deny'],
      ['srv/data/x', 'allow'], // relative: resolved against /
      ['../../srv/data/x', 'allow'],
      ['report.txt', 'deny'],
    ])('pathOutside /srv/data: %s → %s', (path, decision) => expect(run(outside, { path }).decision).toBe(decision));

    test.each([
      ['/etc/passwd', 'deny'],
      ['/etc', 'deny'],
      ['/var/../etc/shadow', 'deny'],
      ['etc/hosts', 'deny'],
      ['/etcetera', 'allow'],
      ['/srv/etc', 'allow'],
    ])('pathUnder /etc/: %s → %s', (path, decision) => expect(run(under, { path }).decision).toBe(decision));

    test.each([
      ['a NUL byte', '/srv/data/x\0/../../etc'],
      ['percent-encoding', '/srv/data/%2e%2e/%2e%2e/etc'],
      ['a backslash', '/srv/data/..\\..\\etc'],
      ['a leading ~', '~/x'],
      ['a number', 42],
      ['null', null],
      ['an array', ['/srv/data/x']],
    ])('denies what it cannot judge by the text (%s) under either rule', (_name, path) => {
      expect(run(outside, { path }).decision).toBe('deny');
      expect(run(under, { path }).decision).toBe('deny');
    });

    it('says why in the detail', () => {
      expect(run(outside, { path: '/srv/data/%2e%2e/etc' })).toEqual({ decision: 'deny', message: 'Only /srv/data.', details: [{ path: 'arguments.path', message: 'is percent-encoded' }] });
    });
  });

  describe('range', () => {
    const rules = [{ argument: 'limit', range: { min: 1, max: 100 }, message: 'limit must be 1–100.' }];
    test.each([
      [1, 'allow'],
      [100, 'allow'],
      [50.5, 'allow'],
      [0, 'deny'],
      [101, 'deny'],
      [-Infinity, 'deny'],
      ['50', 'deny'],
      [null, 'deny'],
    ])('%s → %s', (limit, decision) => expect(run(rules, { limit }).decision).toBe(decision));

    it('takes a missing bound as open', () => {
      expect(run([{ argument: 'n', range: { max: 10 }, message: 'm' }], { n: -1e9 }).decision).toBe('allow');
      expect(run([{ argument: 'n', range: { min: 10 }, message: 'm' }], { n: 1e9 }).decision).toBe('allow');
    });
  });
});
