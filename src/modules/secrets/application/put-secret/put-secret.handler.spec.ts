import fc from 'fast-check';
import { DirectUnitOfWork } from '../../../../shared/testing/direct-unit-of-work.js';
import { FixedClock } from '../../../../shared/testing/fixed-clock.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import { RecordingAuditLog } from '../../../audit/testing/recording-audit-log.js';
import { MAX_SECRET_BYTES, SECRET_NAME_PATTERN } from '../../domain/secret.js';
import { InMemorySecretRepository } from '../../testing/in-memory-secret-repository.js';
import { PutSecretCommand } from './put-secret.command.js';
import { PutSecretHandler } from './put-secret.handler.js';

function setup() {
  const uow = new DirectUnitOfWork();
  const secrets = new InMemorySecretRepository();
  const audit = new RecordingAuditLog(uow);
  const clock = new FixedClock('2026-03-01T12:00:00.000Z');
  const handler = new PutSecretHandler(secrets, audit, uow, clock);
  const put = (name: string, value: string) => handler.execute(new PutSecretCommand(name, value, 'operator-key'));
  return { secrets, audit, clock, put };
}

describe('PutSecretHandler', () => {
  it('stores a new secret and audits its creation, never its value', async () => {
    const f = setup();

    const answer = await f.put('GITHUB_TOKEN', 'ghp_supersecretvalue');

    expect(answer).toEqual({ name: 'GITHUB_TOKEN', createdAt: f.clock.now(), updatedAt: f.clock.now(), created: true });
    expect(await f.secrets.reveal('GITHUB_TOKEN')).toBe('ghp_supersecretvalue');
    expect(f.audit.events).toEqual([{ actor: 'operator-key', action: 'secret.put', targetType: 'secret', targetId: 'GITHUB_TOKEN', targetName: 'GITHUB_TOKEN', details: { created: true } }]);
  });

  it('replaces the value of an existing secret, keeping when it was created, and audits it as not created', async () => {
    const f = setup();
    await f.put('GITHUB_TOKEN', 'first');
    const createdAt = f.clock.now();
    f.clock.advance(60_000);

    const answer = await f.put('GITHUB_TOKEN', 'second');

    expect(answer).toEqual({ name: 'GITHUB_TOKEN', createdAt, updatedAt: f.clock.now(), created: false });
    expect(await f.secrets.reveal('GITHUB_TOKEN')).toBe('second');
    expect(f.audit.events.map((event) => event.details)).toEqual([{ created: true }, { created: false }]);
  });

  it('reports every problem at once and stores nothing', async () => {
    const f = setup();
    const error = await rejection(f.put('1-starts-with-a-digit', ''));
    expect(error).toMatchObject({ kind: 'invalid', code: 'VALIDATION_FAILED', message: 'The secret is invalid.' });
    expect(error.details).toEqual([
      { path: 'name', message: 'must start with a letter or _ and hold only letters, digits, _ . - (at most 128)' },
      { path: 'value', message: 'must not be empty' },
    ]);
    expect(await f.secrets.list(undefined, 10)).toEqual([]);
    expect(f.audit.events).toEqual([]);
  });

  it('counts the value’s size in bytes, not characters', async () => {
    const f = setup();
    const euros = '€'.repeat(MAX_SECRET_BYTES / 3);
    await f.put('FITS', euros);
    const error = await rejection(f.put('TOO_LARGE', `${euros}€`));
    expect(error.details).toEqual([{ path: 'value', message: `must be at most ${MAX_SECRET_BYTES} bytes` }]);
  });

  it('refuses a value with NUL, which neither an environment variable nor a header can carry', async () => {
    const f = setup();
    const error = await rejection(f.put('WITH_NUL', 'a\u0000b'));
    expect(error.details).toEqual([{ path: 'value', message: 'must not contain NUL' }]);
    expect(await f.secrets.list(undefined, 10)).toEqual([]);
  });

  it('takes any name and value it is given: stores a well-formed one as given, refuses the rest, and never answers or audits the value', async () => {
    const letters = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_'];
    const wellFormed = fc
      .tuple(fc.constantFrom(...letters), fc.string({ unit: fc.constantFrom(...letters, ...'0123456789.-'), maxLength: 130 }))
      .map(([first, rest]) => first + rest);
    // Graphemes reach past the BMP; lone surrogates arrive through JSON escapes.
    const anyUnit = fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), fc.constantFrom('\ud800', '\udfff', '\u0000'));
    const name = fc.oneof(wellFormed, fc.string({ maxLength: 140 }), fc.string({ unit: anyUnit, maxLength: 20 }));
    const value = fc.oneof(fc.string({ unit: anyUnit, minLength: 8 }), fc.constant(''), fc.string({ unit: anyUnit, maxLength: 5 }));
    await fc.assert(
      fc.asyncProperty(name, value, async (name, value) => {
        const f = setup();
        const valid = SECRET_NAME_PATTERN.test(name) && value.length > 0 && Buffer.byteLength(value) <= MAX_SECRET_BYTES && !value.includes('\u0000');
        const outcome = await f.put(name, value).then(
          (answer) => ({ answer }),
          (error: unknown) => ({ error }),
        );
        if (!valid) {
          expect(outcome).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
          expect(f.audit.events).toEqual([]);
          return;
        }
        expect(outcome).toEqual({ answer: expect.objectContaining({ name, created: true }) });
        expect(await f.secrets.reveal(name)).toBe(value);
        if (value.length >= 8 && !name.includes(value)) {
          expect(JSON.stringify(outcome)).not.toContain(JSON.stringify(value).slice(1, -1));
          expect(JSON.stringify(f.audit.events)).not.toContain(JSON.stringify(value).slice(1, -1));
        }
      }),
      { numRuns: 200 },
    );
  });
});
