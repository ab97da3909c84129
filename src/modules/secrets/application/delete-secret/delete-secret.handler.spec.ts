import { DirectUnitOfWork } from '../../../../shared/testing/direct-unit-of-work.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import { RecordingAuditLog } from '../../../audit/testing/recording-audit-log.js';
import { InMemorySecretRepository } from '../../testing/in-memory-secret-repository.js';
import { DeleteSecretCommand } from './delete-secret.command.js';
import { DeleteSecretHandler } from './delete-secret.handler.js';

function setup() {
  const uow = new DirectUnitOfWork();
  const secrets = new InMemorySecretRepository({ GITHUB_TOKEN: 'ghp_x', OTHER: 'y' });
  const audit = new RecordingAuditLog(uow);
  const remove = (name: string) => new DeleteSecretHandler(secrets, audit, uow).execute(new DeleteSecretCommand(name, 'admin'));
  return { uow, secrets, audit, remove };
}

describe('DeleteSecretHandler', () => {
  it('deletes the secret and audits it in the same unit of work', async () => {
    const f = setup();

    await f.remove('GITHUB_TOKEN');

    expect(await f.secrets.existing(['GITHUB_TOKEN', 'OTHER'])).toEqual(new Set(['OTHER']));
    expect(f.uow.runs).toBe(1);
    expect(f.audit.events).toEqual([{ actor: 'admin', action: 'secret.deleted', targetType: 'secret', targetId: 'GITHUB_TOKEN', targetName: 'GITHUB_TOKEN', details: {} }]);
  });

  it('answers SECRET_NOT_FOUND for a name no secret has, naming at most 128 characters of it, and audits nothing', async () => {
    const f = setup();
    await f.remove('GITHUB_TOKEN');

    expect(await rejection(f.remove('GITHUB_TOKEN'))).toMatchObject({ kind: 'not_found', code: 'SECRET_NOT_FOUND', message: 'No secret named "GITHUB_TOKEN".' });
    expect(await rejection(f.remove('X'.repeat(300)))).toMatchObject({ message: `No secret named "${'X'.repeat(128)}".` });
    expect(f.audit.events).toHaveLength(1);
  });
});
