import { rejection } from '../../../../shared/testing/rejection.js';
import { DirectUnitOfWork } from '../../../../shared/testing/direct-unit-of-work.js';
import { RecordingAuditLog } from '../../../audit/testing/recording-audit-log.js';
import { InMemoryUserSecrets } from '../../testing/in-memory-user-secrets.js';
import { DeleteUserSecretCommand } from './delete-user-secret.command.js';
import { DeleteUserSecretHandler } from './delete-user-secret.handler.js';

describe('DeleteUserSecretHandler', () => {
  const setup = async () => {
    const uow = new DirectUnitOfWork();
    const secrets = new InMemoryUserSecrets();
    const audit = new RecordingAuditLog(uow);
    for (const [principalId, value] of [
      ['key-alice', 'alice-jira-value'],
      ['key-bob', 'bob-jira-value'],
    ]) {
      await secrets.put(principalId!, 'JIRA_TOKEN', value!, new Date('2026-03-01T12:00:00.000Z'));
    }
    const remove = (principalId: string, name: string) => new DeleteUserSecretHandler(secrets, audit, uow).execute(new DeleteUserSecretCommand(principalId, name));
    return { secrets, audit, remove };
  };

  it("deletes the principal's own secret only, audited by name without its value", async () => {
    const f = await setup();
    await f.remove('key-alice', 'JIRA_TOKEN');
    expect(await f.secrets.reveal('key-alice', ['JIRA_TOKEN'])).toEqual(new Map());
    expect([...(await f.secrets.reveal('key-bob', ['JIRA_TOKEN'])).values()]).toEqual(['bob-jira-value']);
    expect(f.audit.events).toEqual([{ actor: 'key-alice', action: 'user_secret.deleted', targetType: 'user-secret', targetId: 'key-alice:JIRA_TOKEN', targetName: 'JIRA_TOKEN', details: {} }]);
    expect(JSON.stringify(f.audit.events)).not.toContain('jira-value');
  });

  it('answers SECRET_NOT_FOUND for a name the principal does not hold (another principal’s included), auditing nothing', async () => {
    const f = await setup();
    await f.remove('key-alice', 'JIRA_TOKEN');
    for (const [principalId, name] of [
      ['key-alice', 'JIRA_TOKEN'],
      ['key-carol', 'JIRA_TOKEN'],
      ['key-bob', 'GITHUB_TOKEN'],
    ]) {
      expect(await rejection(f.remove(principalId!, name!))).toMatchObject({ kind: 'not_found', code: 'SECRET_NOT_FOUND', message: `You hold no secret named "${name}".` });
    }
    expect(f.audit.events).toHaveLength(1);
    expect([...(await f.secrets.reveal('key-bob', ['JIRA_TOKEN'])).values()]).toEqual(['bob-jira-value']);
  });
});
