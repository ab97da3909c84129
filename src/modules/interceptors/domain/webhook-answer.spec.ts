import fc from 'fast-check';
import { anInterceptedCall } from '../testing/engine-fixtures.js';
import { webhookVerdict } from './webhook-answer.js';

const call = anInterceptedCall({
  arguments: { path: '/a', options: { deep: [1, { b: 2 }] }, n: 1 },
  result: { content: [{ type: 'text', text: 'x' }], truncated: true, originalBytes: 5000 },
});

const answer = (value: unknown) => JSON.stringify(value);

describe('webhookVerdict', () => {
  it('names the top-level arguments a modify changed, added or removed; key order and unchanged values do not count', () => {
    const verdict = webhookVerdict(answer({ decision: 'modify', arguments: { n: 1, options: { deep: [1, { b: 3 }] }, added: null } }), 'pre', call);
    expect(verdict).toEqual({ decision: 'modify', arguments: { n: 1, options: { deep: [1, { b: 3 }] }, added: null }, changes: { paths: ['arguments.added', 'arguments.options', 'arguments.path'] } });
    const same = webhookVerdict(answer({ decision: 'modify', arguments: { n: 1, options: { deep: [1, { b: 2 }] }, path: '/a' } }), 'pre', call);
    expect(same).toMatchObject({ changes: { paths: [] } });
  });

  it('maps a modified result into one not truncated, of its own size, isError only when answered', () => {
    const content = [{ type: 'image', data: 'AAAA', mimeType: 'image/png', annotations: { audience: ['user'] } }, { type: 'text', text: 'é' }];
    expect(webhookVerdict(answer({ decision: 'modify', result: { content } }), 'post', call)).toEqual({
      decision: 'modify',
      result: { content, truncated: false, originalBytes: Buffer.byteLength(JSON.stringify(content)) },
      changes: { paths: ['result'] },
    });
    expect(webhookVerdict(answer({ decision: 'modify', result: { content: [], isError: false } }), 'post', call)).toMatchObject({ isError: false });
  });

  it('takes a deny message of 2,000 characters, counted as characters, not UTF-16 units', () => {
    expect(webhookVerdict(answer({ decision: 'deny', message: '😀'.repeat(2000) }), 'pre', call)).toEqual({ decision: 'deny', message: '😀'.repeat(2000) });
    expect(() => webhookVerdict(answer({ decision: 'deny', message: '😀'.repeat(2001) }), 'pre', call)).toThrow(/needs a message/);
    expect(() => webhookVerdict(answer({ decision: 'deny', message: '' }), 'pre', call)).toThrow(/needs a message/);
  });

  it('refuses what it cannot use, saying what without repeating the answer', () => {
    const failure = (text: string, phase: 'pre' | 'post' = 'pre') => {
      try {
        webhookVerdict(text, phase, call);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(failure('secret-looking garbage')).toBe("the webhook's answer is not JSON");
    expect(failure('[]')).toBe("the webhook's answer is not a JSON object");
    expect(failure('{"decision":"allow","__proto__":{"x":1}}')).toBe("the webhook's answer has a key that is not accepted (__proto__, or constructor.prototype)");
    expect(failure(`${'['.repeat(100)}${']'.repeat(100)}`)).toBe("the webhook's answer nests deeper than 66 levels");
    expect(failure('{}')).toBe('the webhook\'s answer has no decision ("allow", "deny" or "modify")');
    expect(failure(answer({ decision: 'allow', arguments: {} }))).toBe('the webhook\'s answer is not usable: decision "allow" takes no arguments or result');
    expect(failure(answer({ decision: 'modify' }), 'post')).toBe('the webhook\'s answer is not usable: decision "modify" after the call needs a result: an object with content');
    expect(failure(answer({ decision: 'modify', result: { content: [{ type: 'resource', resource: { uri: 'a', text: 'b', blob: 7 } }], structuredContent: [1] } }), 'post')).toBe(
      "the webhook's answer is not usable: result.content[0] needs resource: an object with a uri and a text or a blob (strings); result.structuredContent must be a JSON object",
    );
    const many = failure(answer({ decision: 'modify', result: { content: Array.from({ length: 12 }, () => ({ type: 'text' })) } }), 'post');
    expect(many).toMatch(/result\.content\[9\] needs text \(a string\) \(and 2 more\)$/);
  });

  it('answers a verdict or throws an Error for any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json({ maxDepth: 4 })), fc.constantFrom('pre' as const, 'post' as const), (text, phase) => {
        let verdict;
        try {
          verdict = webhookVerdict(text, phase, call);
        } catch (error) {
          expect(error).toBeInstanceOf(Error);
          return;
        }
        expect(['allow', 'deny', 'modify']).toContain(verdict.decision);
      }),
      { numRuns: 1000 },
    );
  });
});
