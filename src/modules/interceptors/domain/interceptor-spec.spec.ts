import fc from 'fast-check';
import { ProblemList } from '../../../shared/domain-error.js';
import { INTERCEPTOR_KINDS, REDACTION_KINDS, type InterceptorSpec } from './interceptor.js';
import { checkInterceptorSpec, flatInterceptor, INTERCEPTOR_LIMITS, KIND_FIELDS, mergeInterceptorChange, settingsInOrder } from './interceptor-spec.js';

const check = (input: Record<string, unknown>, partial = false) => {
  const problems = new ProblemList();
  const spec = checkInterceptorSpec(input, problems, partial);
  return { spec, problems: problems.all.map((problem) => `${problem.path}: ${problem.message}`) };
};
const paths = (input: Record<string, unknown>, partial = false) => check(input, partial).problems.map((problem) => problem.slice(0, problem.indexOf(': ')));

const COMMON = { description: '', order: 0, scope: {}, onError: 'deny', timeoutMs: 1000, enabled: true };

describe('checkInterceptorSpec', () => {
  it('reads the flat form into a spec, the kind’s fields as its settings, the common ones defaulted', () => {
    expect(
      check({ name: 'no-rm', kind: 'deny', phase: 'pre', scope: { tools: ['fs__*'] }, rules: [{ message: 'Not /etc.', pattern: '^/etc/', argument: 'path' }] }),
    ).toEqual({
      spec: { name: 'no-rm', ...COMMON, kind: 'deny', phase: 'pre', scope: { tools: ['fs__*'] }, settings: { rules: [{ argument: 'path', pattern: '^/etc/', message: 'Not /etc.' }] } },
      problems: [],
    });
    expect(check({ name: 'mask-pii', kind: 'redact', phase: 'post', scope: { source: 'crm' } })).toEqual({
      spec: { name: 'mask-pii', ...COMMON, kind: 'redact', phase: 'post', scope: { source: 'crm' }, settings: {} },
      problems: [],
    });
  });

  it("defaults the phase to the kind's only one, requires it of a webhook, and gives a webhook 5 s", () => {
    expect(check({ name: 'a', kind: 'cap', maxBytes: 10 }).spec).toMatchObject({ phase: 'post', timeoutMs: 1000, settings: { maxBytes: 10 } });
    expect(check({ name: 'a', kind: 'lock', arguments: { owner: 'acme' } }).spec).toMatchObject({ phase: 'pre', settings: { arguments: { owner: 'acme' } } });
    expect(check({ name: 'a', kind: 'webhook', url: 'https://hook.example.com/x', signingSecret: 'HOOK' }).problems).toEqual(['phase: is required for a webhook interceptor: pre or post']);
    expect(check({ name: 'a', kind: 'webhook', phase: 'post', url: 'https://hook.example.com/x', signingSecret: 'HOOK' }).spec).toMatchObject({
      phase: 'post',
      timeoutMs: 5000,
      settings: { url: 'https://hook.example.com/x', signingSecret: 'HOOK' },
    });
  });

  it('refuses a phase the kind does not run in', () => {
    expect(check({ name: 'a', kind: 'deny', phase: 'post', rules: [{ message: 'x' }] }).problems).toEqual(['phase: must be pre for a deny interceptor (post given)']);
    expect(check({ name: 'a', kind: 'redact', phase: 'pre' }).problems).toEqual(['phase: must be post for a redact interceptor (pre given)']);
    expect(paths({ name: 'a', kind: 'output-schema', phase: 'during' })).toEqual(['phase']);
  });

  it('lists every problem of the common fields under its path, unknown properties with what they nearly spell', () => {
    expect(
      check({ name: 'No Name', descripton: 'x', kind: 'deny', order: 1.5, scope: { source: 'A B', tools: [], sneaky: 1 }, onError: 'ignore', timeoutMs: 60_001, enabled: 'yes', rules: [{ message: 'm' }] }).problems,
    ).toEqual([
      'descripton: is not a known property; did you mean `description`?',
      'name: must be a lowercase slug: letters, digits and dashes, 1-63 characters, not starting with a dash',
      'order: must be an integer from -1000000 to 1000000',
      'scope.sneaky: is not a known property (source, group, tools)',
      "scope.source: must be a source's name: a lowercase slug: letters, digits and dashes, 1-63 characters, not starting with a dash",
      'scope.tools: must be a non-empty array of qualified tool name patterns',
      'onError: must be deny (a failing or slow interceptor refuses the call) or allow (the call goes on as if it allowed)',
      'timeoutMs: must be an integer from 1 to 60000 (milliseconds)',
      'enabled: must be true or false',
    ]);
    expect(paths({})).toEqual(['name', 'kind']);
    expect(paths({ name: 'a', kind: 'shred' })).toEqual(['kind']);
    expect(paths({ name: 'a', kind: 'redact', rules: [], maxBytes: 5, url: 'x' })).toEqual(['rules', 'maxBytes', 'url']);
    expect(check({ name: 'a', kind: 'redact', rules: [] }).problems[0]).toBe('rules: is not a setting of a redact interceptor (deny only); its settings: detect, patterns');
  });

  it('checks deny rules: at least one, a message each, one condition on a named argument, RE2 patterns, absolute paths, ordered ranges', () => {
    const deny = (rules: unknown) => check({ name: 'a', kind: 'deny', rules });
    expect(paths({ name: 'a', kind: 'deny' })).toEqual(['rules']);
    expect(deny([]).problems).toEqual(['rules: must be a non-empty array of rules']);
    expect(
      deny([
        { tools: ['fs__*'] },
        { argument: 'path', pattern: '^/etc', pathUnder: '/etc', message: 'x' },
        { pattern: 'x', message: 'x' },
        { argument: 'path', message: 'x' },
        { argument: 'a..b', equals: 1, message: 'x' },
        { argument: 'p', pattern: '(a)\\1', message: 'x' },
        { argument: 'p', pattern: '(?=a)', message: 'x' },
        { argument: 'p', pathOutside: 'srv/data', message: 'x' },
        { argument: 'n', range: { min: 5, max: 1 }, message: 'x' },
        { argument: 'n', range: {}, message: 'x' },
        { argument: 'n', range: { min: '1', step: 2 }, message: 'x' },
        { message: '   ' },
        { message: 'x'.repeat(INTERCEPTOR_LIMITS.message + 1) },
        'deny all',
        { tools: ['bad pattern'], colour: 'red', message: 'x' },
      ]).problems.map((problem) => problem.slice(0, problem.indexOf(': '))),
    ).toEqual([
      'rules[0].message',
      'rules[1]',
      'rules[2].pattern',
      'rules[3].argument',
      'rules[4].argument',
      'rules[5].pattern',
      'rules[6].pattern',
      'rules[7].pathOutside',
      'rules[8].range',
      'rules[9].range',
      'rules[10].range.step',
      'rules[10].range.min',
      'rules[11].message',
      'rules[12].message',
      'rules[13]',
      'rules[14].colour',
      'rules[14].tools[0]',
    ]);
    expect(deny([{ argument: 'p', pattern: '(a)\\1', message: 'x' }]).problems[0]).toMatch(/^rules\[0\]\.pattern: is not a pattern RE2 takes/);
    // A pattern that backtracks in other engines is linear in RE2: taken.
    expect(deny([{ argument: 'p', pattern: '^(a+)+$', message: 'x' }, { argument: 'p', equals: null, message: 'null too' }]).problems).toEqual([]);
    expect(deny([{ argument: 'x', equals: 'x'.repeat(INTERCEPTOR_LIMITS.equalsBytes), message: 'm' }]).problems).toEqual([
      `rules[0].equals: must take at most ${INTERCEPTOR_LIMITS.equalsBytes} bytes of JSON (${INTERCEPTOR_LIMITS.equalsBytes + 2} given)`,
    ]);
  });

  it('checks redact: known detectors, named custom patterns that RE2 compiles and that never match empty text', () => {
    const redact = (settings: Record<string, unknown>) => check({ name: 'a', kind: 'redact', ...settings });
    expect(redact({ detect: ['email', 'email', 'card'] }).spec).toMatchObject({ settings: { detect: ['email', 'card'] } });
    expect(redact({ detect: ['email', 'ssn'] }).problems).toEqual([`detect[1]: must be one of ${REDACTION_KINDS.join(', ')}`]);
    expect(redact({ detect: [] }).problems).toEqual(['detect: leaves no detector: name at least one, give patterns, or leave detect out for all of them']);
    expect(redact({ detect: [], patterns: [{ name: 'ticket', pattern: 'TCK-[0-9]+' }] }).problems).toEqual([]);
    expect(
      paths({
        name: 'a',
        kind: 'redact',
        patterns: [
          { pattern: 'x' },
          { name: 'Upper', pattern: 'x' },
          { name: 'email', pattern: 'x' },
          { name: 'dup', pattern: 'x' },
          { name: 'dup', pattern: 'y' },
          { name: 'star', pattern: 'x*' },
          { name: 'edge', pattern: '\\b' },
          { name: 'anchor', pattern: '^' },
          { name: 'look', pattern: 'a(?!b)' },
          { name: 'extra', pattern: 'x', flags: 'g' },
          7,
        ],
      }),
    ).toEqual([
      'patterns[0].name',
      'patterns[1].name',
      'patterns[2].name',
      'patterns[4].name',
      'patterns[5].pattern',
      'patterns[6].pattern',
      'patterns[7].pattern',
      'patterns[8].pattern',
      'patterns[9].flags',
      'patterns[10]',
    ]);
    expect(redact({ patterns: [{ name: 'star', pattern: 'x*' }] }).problems).toEqual(['patterns[0].pattern: matches empty text: a mask needs something to replace']);
  });

  it('checks cap: at least one limit, each a positive integer; and output-schema’s one setting', () => {
    expect(check({ name: 'a', kind: 'cap' }).problems).toEqual(['body: a cap interceptor needs at least one limit: maxBytes, maxBlocks or maxTextLength']);
    expect(check({ name: 'a', kind: 'cap', action: 'refuse' }).problems).toEqual(['body: a cap interceptor needs at least one limit: maxBytes, maxBlocks or maxTextLength']);
    expect(paths({ name: 'a', kind: 'cap', maxBytes: 0, maxBlocks: 1.5, maxTextLength: INTERCEPTOR_LIMITS.capLimit + 1, action: 'drop' })).toEqual(['maxBytes', 'maxBlocks', 'maxTextLength', 'action']);
    expect(check({ name: 'a', kind: 'cap', maxTextLength: 100, action: 'refuse' }).spec).toMatchObject({ settings: { maxTextLength: 100, action: 'refuse' } });
    expect(check({ name: 'a', kind: 'output-schema' }).spec).toMatchObject({ phase: 'post', settings: {} });
    expect(paths({ name: 'a', kind: 'output-schema', onMismatch: 'ignore' })).toEqual(['onMismatch']);
  });

  it('checks defaults and lock: an object of at least one argument, none null, bounded as a group override’s', () => {
    expect(paths({ name: 'a', kind: 'defaults' })).toEqual(['arguments']);
    expect(paths({ name: 'a', kind: 'lock', arguments: [] })).toEqual(['arguments']);
    expect(check({ name: 'a', kind: 'lock', arguments: {} }).problems).toEqual(['arguments: must hold at least one argument']);
    expect(paths({ name: 'a', kind: 'lock', arguments: { x: null, '': 1 } })).toEqual(['arguments.x', 'arguments.']);
    expect(check({ name: 'a', kind: 'lock', arguments: { blob: 'x'.repeat(16_384) } }).problems).toEqual(['arguments: must take at most 16384 bytes of JSON (16395 given)']);
    expect(paths({ name: 'a', kind: 'defaults', arguments: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`a${i}`, i])) })).toEqual(['arguments']);
    const proto = check({ name: 'a', kind: 'lock', arguments: JSON.parse('{"__proto__": {"polluted": true}}') });
    expect(Object.keys((proto.spec.settings as { arguments: object }).arguments)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('checks webhook: an http(s) URL without credentials, and a secret’s name, not its value', () => {
    const hook = (settings: Record<string, unknown>) => check({ name: 'a', kind: 'webhook', phase: 'pre', ...settings }).problems;
    expect(hook({})).toEqual(['url: is required: where the call is POSTed', 'signingSecret: is required: the name of the stored secret that signs each request']);
    expect(hook({ url: 'ftp://hook.example.com', signingSecret: 'K' })).toEqual(['url: must use http or https, not ftp']);
    expect(hook({ url: 'not a url', signingSecret: 'K' })).toEqual(['url: is not a valid URL']);
    expect(hook({ url: 'https://user:pw@hook.example.com', signingSecret: 'K' })).toEqual(['url: must not embed credentials: requests are signed with signingSecret']);
    expect(hook({ url: 'https://hook.example.com/?token=abc', signingSecret: 'K' })).toEqual([
      'url: must not carry a credential in its query (token, key, sig…): requests are signed with signingSecret',
    ]);
    expect(hook({ url: `https://hook.example.com/${'a'.repeat(INTERCEPTOR_LIMITS.url)}`, signingSecret: 'K' })).toEqual([expect.stringMatching(/^url: must be an http\(s\) URL of at most/)]);
    expect(paths({ name: 'a', kind: 'webhook', phase: 'pre', url: 'https://hook.example.com', signingSecret: 'sk-live value!' })).toEqual(['signingSecret']);
  });

  it('bounds what one interceptor holds', () => {
    const rules = (n: number, rule: Record<string, unknown>) => Array.from({ length: n }, () => rule);
    expect(check({ name: 'a', kind: 'deny', rules: rules(INTERCEPTOR_LIMITS.rules + 1, { message: 'x' }) }).problems).toEqual(['rules: must hold at most 100 rules']);
    expect(check({ name: 'a', kind: 'deny', rules: rules(INTERCEPTOR_LIMITS.patterns + 1, { argument: 'p', pattern: 'x', message: 'x' }) }).problems).toEqual([
      'body: holds 51 patterns; at most 50 fit in one interceptor',
    ]);
    expect(paths({ name: 'a', kind: 'deny', description: 'x'.repeat(2_001), rules: [{ message: 'x' }] })).toEqual(['description']);
    expect(paths({ name: 'a', kind: 'deny', scope: { tools: Array.from({ length: 101 }, () => 'x') }, rules: [{ message: 'x' }] })).toEqual(['scope.tools']);
    expect(check({ name: 'a', kind: 'deny', rules: rules(100, { argument: 'x', equals: 'y'.repeat(1_000), message: 'x' }) }).problems).toEqual([
      expect.stringMatching(/^body: the deny settings take \d+ bytes of JSON; at most 65536$/),
    ]);
  });

  it('checks only the fields given in a change, each kind field by its own kind’s rule', () => {
    expect(check({ description: 'x', order: 5 }, true)).toEqual({ spec: { description: 'x', order: 5 }, problems: [] });
    expect(check({ rules: [{ argument: 'p', pattern: '(', message: 'x' }], maxBytes: -1 }, true).problems.map((p) => p.split(':')[0])).toEqual(['rules[0].pattern', 'maxBytes']);
    expect(check({ kind: 'cap', rules: [] }, true).problems).toEqual(['rules: is not a setting of a cap interceptor (deny only); its settings: maxBytes, maxBlocks, maxTextLength, action']);
    expect(check({ kind: 'deny', phase: 'post' }, true).problems).toEqual(['phase: must be pre for a deny interceptor (post given)']);
    expect(check({ description: null, scope: null }, true)).toEqual({ spec: {}, problems: [] });
    expect(paths({ colour: 'red', name: 7 }, true)).toEqual(['colour', 'name']);
  });
});

describe('mergeInterceptorChange', () => {
  const deny = checkInterceptorSpec({ name: 'a', kind: 'deny', order: 3, rules: [{ message: 'x' }] }, new ProblemList()) as InterceptorSpec;
  const webhook = checkInterceptorSpec({ name: 'b', kind: 'webhook', phase: 'post', url: 'https://h.example.com', signingSecret: 'K' }, new ProblemList()) as InterceptorSpec;

  it('puts the fields given over the stored ones, null back to the default', () => {
    expect(mergeInterceptorChange(deny, { description: 'now', order: null })).toEqual({ ...flatInterceptor(deny), description: 'now', order: undefined });
    expect(check(mergeInterceptorChange(deny, { order: null })).spec.order).toBe(0);
  });

  it("drops the old kind's settings with a new kind, and the phase and timeout it does not keep", () => {
    expect(check(mergeInterceptorChange(deny, { kind: 'cap', maxBytes: 100 }))).toMatchObject({ spec: { kind: 'cap', phase: 'post', order: 3, settings: { maxBytes: 100 } }, problems: [] });
    expect(check(mergeInterceptorChange(webhook, { kind: 'redact' }))).toMatchObject({ spec: { kind: 'redact', phase: 'post', timeoutMs: 1000, settings: {} }, problems: [] });
    expect(check(mergeInterceptorChange(deny, { kind: 'webhook', url: 'https://h.example.com', signingSecret: 'K' }))).toMatchObject({ spec: { phase: 'pre', timeoutMs: 5000 }, problems: [] });
  });
});

describe('settingsInOrder', () => {
  it('puts settings read back without key order in the order the kind declares them, a rule’s and a pattern’s fields too', () => {
    const rules = settingsInOrder('deny', { rules: [{ message: 'No.', pathUnder: '/etc', argument: 'path', tools: ['fs__*'] }] });
    expect(JSON.stringify(rules)).toBe('{"rules":[{"tools":["fs__*"],"argument":"path","pathUnder":"/etc","message":"No."}]}');
    expect(JSON.stringify(settingsInOrder('redact', { patterns: [{ pattern: 'x', name: 'x' }], detect: ['email'] }))).toBe('{"detect":["email"],"patterns":[{"name":"x","pattern":"x"}]}');
    expect(JSON.stringify(settingsInOrder('cap', { action: 'refuse', maxBytes: 1 }))).toBe('{"maxBytes":1,"action":"refuse"}');
  });
});

describe('checkInterceptorSpec, property-based', () => {
  const json = fc.jsonValue({ maxDepth: 4 });
  /** Mostly good values, now and then a bad one. */
  const sometimes = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 9 }, { arbitrary: bad, weight: 1 });
  const pattern = fc.oneof(fc.constantFrom('^/etc/', '[0-9]{4}', '(a|b)+c', 'x*', '(', '\\1', '(?=a)', '\\p{L}+', ''), fc.string({ maxLength: 12 }));
  const patterns = fc.array(fc.oneof(fc.constant('fs__*'), fc.constant('*'), fc.string({ maxLength: 8 })), { maxLength: 3 });
  const condition = fc.oneof(
    fc.record({ equals: json }),
    fc.record({ pattern }),
    fc.record({ pathUnder: fc.constantFrom('/etc', '/srv/data/', 'relative', '') }),
    fc.record({ pathOutside: fc.constantFrom('/home', '/') }),
    fc.record({ range: fc.record({ min: fc.oneof(fc.integer(), fc.double()), max: fc.integer({ min: 0 }) }, { requiredKeys: [] }) }),
    fc.constant({}),
  );
  const rule = fc
    .tuple(
      fc.record(
        {
          tools: fc.oneof(fc.array(fc.constantFrom('fs__*', '*', 'ev__echo'), { minLength: 1, maxLength: 3 }), patterns),
          argument: fc.oneof(fc.constantFrom('path', 'options.path', 'a..b', ''), fc.string({ maxLength: 6 })),
          message: fc.oneof(fc.constant('Refused.'), fc.string({ maxLength: 10 })),
        },
        { requiredKeys: [] },
      ),
      condition,
    )
    .map(([base, when]) => ({ ...base, ...when }));
  const settings = fc.record(
    {
      arguments: sometimes(fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), json, { minKeys: 1, maxKeys: 3 }), json),
      rules: fc.array(rule, { minLength: 1, maxLength: 3 }),
      detect: fc.array(fc.oneof(fc.constantFrom(...REDACTION_KINDS), fc.string({ maxLength: 5 })), { maxLength: 3 }),
      patterns: fc.array(fc.record({ name: fc.constantFrom('ticket', 'email', 'Bad', 'id-2'), pattern }, { requiredKeys: [] }), { maxLength: 2 }),
      maxBytes: sometimes(fc.integer({ min: 1, max: 10_000 }), json),
      maxBlocks: fc.integer({ min: 0, max: 5 }),
      maxTextLength: fc.integer({ min: 1, max: 500 }),
      action: fc.constantFrom('truncate', 'refuse', 'drop'),
      onMismatch: fc.constantFrom('error', 'warn', 'ignore'),
      url: sometimes(fc.constantFrom('https://hook.example.com/check', 'http://127.0.0.1:9/x'), fc.constantFrom('ftp://x', 'https://u:p@h.example.com', 'https://h.example.com/?sig=1', 'no')),
      signingSecret: sometimes(fc.constantFrom('HOOK_KEY', 'k.1'), fc.constantFrom('a b', '1x')),
    },
    { requiredKeys: [] },
  );
  /** The kind's own fields, rarely another kind's too. */
  const plausible = fc
    .constantFrom(...INTERCEPTOR_KINDS)
    .chain((kind) =>
      fc.tuple(
        fc.constant(kind),
        fc.record(
          {
            name: sometimes(fc.constantFrom('no-etc', 'mask-pii', 'a', '9-lives'), fc.string({ maxLength: 8 })),
            description: sometimes(fc.string({ maxLength: 20 }), json),
            phase: sometimes(fc.constantFrom('pre', 'post'), fc.constantFrom('during', null)),
            order: sometimes(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.double()),
            scope: sometimes(fc.record({ source: fc.constantFrom('crm', 'ev'), group: fc.constantFrom('support'), tools: fc.array(fc.constantFrom('fs__*', '*', 'ev__echo'), { minLength: 1, maxLength: 3 }) }, { requiredKeys: [] }), json),
            onError: sometimes(fc.constantFrom('deny', 'allow'), fc.constant('maybe')),
            timeoutMs: sometimes(fc.integer({ min: 1, max: 60_000 }), fc.integer({ min: -5, max: 70_000 })),
            enabled: sometimes(fc.boolean(), json),
          },
          { requiredKeys: ['name'] },
        ),
        settings,
        fc.integer({ min: 0, max: 9 }),
      ),
    )
    .map(([kind, common, own, stray]) => {
      const fields = Object.entries(own).filter(([field]) => KIND_FIELDS[kind].includes(field) || stray === 0);
      return { ...common, kind, ...Object.fromEntries(fields) } as Record<string, unknown>;
    });

  it('never throws on arbitrary JSON, and reports a problem for anything that is not an interceptor', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 10 }), json, { maxKeys: 8 }), fc.boolean(), (input, partial) => {
        const problems = new ProblemList();
        checkInterceptorSpec(input, problems, partial);
        for (const problem of problems.all) expect(typeof problem.path === 'string' && problem.message.length > 0).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips every spec it accepts: the flat form of an accepted spec is accepted as the same spec', () => {
    let accepted = 0;
    fc.assert(
      fc.property(plausible, (input) => {
        const problems = new ProblemList();
        const spec = checkInterceptorSpec(input, problems);
        if (!problems.isEmpty) return;
        accepted++;
        const again = new ProblemList();
        const reread = checkInterceptorSpec(JSON.parse(JSON.stringify(flatInterceptor(spec as InterceptorSpec))), again);
        expect(again.all).toEqual([]);
        expect(reread).toEqual(spec);
        expect(Object.keys(spec).sort()).toEqual(['description', 'enabled', 'kind', 'name', 'onError', 'order', 'phase', 'scope', 'settings', 'timeoutMs']);
      }),
      { numRuns: 3000 },
    );
    // The generator must reach accepted specs, or the property says nothing.
    expect(accepted).toBeGreaterThan(200);
  });
});

describe('checkInterceptorSpec: approval', () => {
  it('reads an approval: pre only, waiting an hour unless told, its settings in order', () => {
    expect(check({ name: 'four-eyes', kind: 'approval', approvers: { principals: ['ops'], roles: ['admin'] }, when: { annotations: { destructiveHint: true } } })).toEqual({
      spec: {
        name: 'four-eyes',
        ...COMMON,
        timeoutMs: 3_600_000,
        kind: 'approval',
        phase: 'pre',
        settings: { approvers: { principals: ['ops'], roles: ['admin'] }, when: { annotations: { destructiveHint: true } } },
      },
      problems: [],
    });
    expect(check({ name: 'a', kind: 'approval', approvers: { roles: ['admin'] }, timeoutMs: 7 * 24 * 3_600_000 }).problems).toEqual([]);
  });

  it('lists every problem of an approval at once', () => {
    expect(
      paths({
        name: 'a',
        kind: 'approval',
        phase: 'post',
        timeoutMs: 7 * 24 * 3_600_000 + 1,
        approvers: { roles: ['king'], groups: ['x'] },
        when: { annotations: { destructiveHint: 'yes' }, arguments: [{ argument: 'n', range: { min: 5, max: 1 } }, { pattern: 'x' }, { argument: 'p', pathUnder: 'rel', message: 'm' }], who: [] },
        notify: { url: 'https://u:p@hooks.example.com', signingSecret: 'not a name' },
        onTimeout: 'allow',
      }).sort(),
    ).toEqual(
      [
        'phase',
        'timeoutMs',
        'approvers.roles[0]',
        'approvers.groups',
        'when.annotations.destructiveHint',
        'when.arguments[0].range',
        'when.arguments[1].pattern',
        'when.arguments[2].pathUnder',
        'when.arguments[2].message',
        'when.who',
        'notify.url',
        'notify.signingSecret',
        'onTimeout',
      ].sort(),
    );
  });

  it('requires approvers naming someone, and keeps other kinds to 60 s', () => {
    expect(paths({ name: 'a', kind: 'approval' })).toEqual(['approvers']);
    expect(paths({ name: 'a', kind: 'approval', approvers: {} })).toEqual(['approvers']);
    expect(paths({ name: 'a', kind: 'approval', approvers: { roles: ['admin'] }, notify: {} })).toEqual(['notify.url', 'notify.signingSecret']);
    expect(paths({ name: 'a', kind: 'deny', rules: [{ message: 'm' }], timeoutMs: 3_600_000 })).toEqual(['timeoutMs']);
    expect(paths({ name: 'a', kind: 'webhook', phase: 'pre', url: 'https://x.example.com', signingSecret: 'K', approvers: { roles: ['admin'] } })).toEqual(['approvers']);
  });

  it('goes back to the new kind’s timeout when a long approval becomes a deny', () => {
    const current = check({ name: 'a', kind: 'approval', approvers: { roles: ['admin'] }, timeoutMs: 7_200_000 }).spec as InterceptorSpec;
    const merged = mergeInterceptorChange(current, { kind: 'deny', rules: [{ message: 'no' }] });
    expect(check(merged).spec).toMatchObject({ kind: 'deny', timeoutMs: 1000 });
  });
});
