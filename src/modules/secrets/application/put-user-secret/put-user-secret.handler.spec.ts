import fc from 'fast-check';
import { DirectUnitOfWork } from '../../../../shared/testing/direct-unit-of-work.js';
import { FixedClock } from '../../../../shared/testing/fixed-clock.js';
import { RecordingEventBus } from '../../../../shared/testing/recording-event-bus.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import { RecordingAuditLog } from '../../../audit/testing/recording-audit-log.js';
import { MAX_USER_SECRETS_PER_PRINCIPAL, UserSecretStored } from '../../domain/user-secret.js';
import { InMemoryUserSecrets } from '../../testing/in-memory-user-secrets.js';
import { DeleteUserSecretCommand } from '../delete-user-secret/delete-user-secret.command.js';
import { DeleteUserSecretHandler } from '../delete-user-secret/delete-user-secret.handler.js';
import { PutUserSecretCommand } from './put-user-secret.command.js';
import { PutUserSecretHandler } from './put-user-secret.handler.js';

function setup() {
  const uow = new DirectUnitOfWork();
  const secrets = new InMemoryUserSecrets();
  const audit = new RecordingAuditLog(uow);
  const events = new RecordingEventBus();
  const clock = new FixedClock('2026-03-01T12:00:00.000Z');
  const handler = new PutUserSecretHandler(secrets, audit, uow, clock, events.bus);
  const put = (principalId: string, name: string, value: unknown) => handler.execute(new PutUserSecretCommand(principalId, name, value));
  const remove = (principalId: string, name: string) => new DeleteUserSecretHandler(secrets, audit, uow).execute(new DeleteUserSecretCommand(principalId, name));
  return { secrets, audit, events, put, remove };
}

describe('PutUserSecretHandler', () => {
  it("stores a principal's own value, audits it by name only and says it arrived; others see none of it", async () => {
    const f = setup();

    expect(await f.put('key-alice', 'JIRA_TOKEN', 'alice-jira-value')).toMatchObject({ name: 'JIRA_TOKEN', created: true });
    expect(await f.put('key-alice', 'JIRA_TOKEN', 'alice-jira-value-2')).toMatchObject({ created: false });

    expect([...(await f.secrets.reveal('key-alice', ['JIRA_TOKEN'])).values()]).toEqual(['alice-jira-value-2']);
    expect(await f.secrets.reveal('key-bob', ['JIRA_TOKEN'])).toEqual(new Map());
    expect(f.audit.events.map((e) => [e.actor, e.action, e.targetType, e.targetName, e.details])).toEqual([
      ['key-alice', 'user_secret.put', 'user-secret', 'JIRA_TOKEN', { created: true }],
      ['key-alice', 'user_secret.put', 'user-secret', 'JIRA_TOKEN', { created: false }],
    ]);
    expect(JSON.stringify(f.audit.events)).not.toContain('alice-jira-value');
    expect(f.events.published).toEqual([new UserSecretStored('key-alice', 'JIRA_TOKEN'), new UserSecretStored('key-alice', 'JIRA_TOKEN')]);

    await f.remove('key-alice', 'JIRA_TOKEN');
    expect(f.audit.events.at(-1)).toMatchObject({ action: 'user_secret.deleted', details: {} });
    expect(await rejection(f.remove('key-alice', 'JIRA_TOKEN'))).toMatchObject({ code: 'SECRET_NOT_FOUND' });
  });

  it('refuses a bad name and a bad value together, and one secret over the limit', async () => {
    const f = setup();
    expect(await rejection(f.put('key-alice', '9 lives', ''))).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [
        { path: 'name', message: expect.stringContaining('must start with a letter') },
        { path: 'value', message: 'must not be empty' },
      ],
    });
    for (let i = 0; i < MAX_USER_SECRETS_PER_PRINCIPAL; i++) await f.put('key-alice', `S${i}`, 'v');
    expect(await rejection(f.put('key-alice', 'ONE_MORE', 'v'))).toMatchObject({ code: 'USER_SECRET_LIMIT' });
    expect(await f.put('key-alice', 'S0', 'replaced')).toMatchObject({ created: false });
  });

  it('stores only what it accepts, whatever it is given', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 140 }), fc.jsonValue(), async (name, value) => {
        const f = setup();
        const outcome = await f.put('p', name, value).then(
          () => 'stored',
          (error: { code?: string }) => error.code,
        );
        expect(['stored', 'VALIDATION_FAILED']).toContain(outcome);
        expect((await f.secrets.list('p')).length).toBe(outcome === 'stored' ? 1 : 0);
      }),
      { numRuns: 200 },
    );
  });
});
