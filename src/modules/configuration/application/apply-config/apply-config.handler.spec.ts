import { rejection } from '../../../../shared/testing/rejection.js';
import { CreateGroupCommand } from '../../../groups/application/create-group/create-group.command.js';
import { CreateInterceptorCommand } from '../../../interceptors/application/create-interceptor/create-interceptor.command.js';
import { CreateApiKeyCommand } from '../../../access/application/create-api-key/create-api-key.command.js';
import { RevokeApiKeyCommand } from '../../../access/application/revoke-api-key/revoke-api-key.command.js';
import { aKeyValue, anApiKey } from '../../../access/testing/builders.js';
import { RegisterSourceCommand } from '../../../sources/application/register-source/register-source.command.js';
import { RemoveSourceCommand } from '../../../sources/application/remove-source/remove-source.command.js';
import { UpdateSourceCommand } from '../../../sources/application/update-source/update-source.command.js';
import { aSource, aStdioSpec } from '../../../sources/testing/builders.js';
import type { SourceSpecInput } from '../../../sources/application/source-spec.js';
import { configurationFixture } from '../../testing/configuration-fixture.js';
import { ApplyConfigCommand, type ApplyOptions } from './apply-config.command.js';
import type { DeclaredKey } from './key-planner.js';

const APPLY: ApplyOptions = { dryRun: false, prune: false, waitForDiscovery: true };
const declare = (...specs: SourceSpecInput[]) => specs.map((spec) => ({ spec, shapeProblems: [] }));

function setup() {
  const f = configurationFixture({
    sources: [aSource({ name: 'kept' }), aSource({ name: 'changed' }), aSource({ name: 'undeclared' })],
    keys: [anApiKey('old-agent', { id: 'key-old' })],
    secrets: { NEW_AGENT_KEY: aKeyValue('new-agent') },
  });
  const apply = (sources: ReturnType<typeof declare>, options: Partial<ApplyOptions> = {}, keys?: DeclaredKey[], mayManageKeys = true) =>
    f.applier.execute(new ApplyConfigCommand(sources, [], { ...APPLY, ...options }, 'admin', { keys }, { groups: true, interceptors: true, keys: mayManageKeys }));
  return { ...f, apply };
}

const file = () => declare(aStdioSpec({ name: 'kept' }), aStdioSpec({ name: 'changed', timeoutMs: 5000 }), aStdioSpec({ name: 'fresh' }));
const newAgent: DeclaredKey = { spec: { name: 'new-agent', role: 'agent' }, key: '${secret:NEW_AGENT_KEY}', shapeProblems: [] };

describe('ApplyConfigHandler', () => {
  it('runs each change as the command the REST API runs, sources first, then keys, under the lock, and audits the whole', async () => {
    const f = setup();
    f.commands.on(RegisterSourceCommand, () => expect(f.lock.held).toBe(true));

    const result = await f.apply(file(), { prune: true }, [newAgent]);

    expect(result).toEqual({
      dryRun: false,
      prune: true,
      changes: [
        { kind: 'source', name: 'kept', action: 'unchanged', fields: [] },
        { kind: 'source', name: 'changed', action: 'update', fields: ['timeoutMs'] },
        { kind: 'source', name: 'fresh', action: 'create', fields: [] },
        { kind: 'source', name: 'undeclared', action: 'delete', fields: [] },
        { kind: 'key', name: 'new-agent', action: 'create', fields: [] },
        { kind: 'key', name: 'old-agent', action: 'delete', fields: [] },
      ],
      summary: { create: 2, update: 1, unchanged: 1, delete: 2 },
    });
    expect(f.commands.executed.map((command) => command.constructor)).toEqual([
      UpdateSourceCommand,
      RegisterSourceCommand,
      RemoveSourceCommand,
      CreateApiKeyCommand,
      RevokeApiKeyCommand,
    ]);
    const [update, register, remove, create, revoke] = f.commands.executed as [UpdateSourceCommand, RegisterSourceCommand, RemoveSourceCommand, CreateApiKeyCommand, RevokeApiKeyCommand];
    expect(update).toMatchObject({ idOrName: 'changed', changes: { timeoutMs: 5000, command: 'node' }, shapeProblems: [], actor: 'admin', waitForDiscovery: true });
    expect(update.changes.version).toBeUndefined();
    expect(register).toMatchObject({ spec: { name: 'fresh' }, actor: 'admin', waitForDiscovery: true });
    expect(remove).toMatchObject({ idOrName: 'undeclared', actor: 'admin' });
    expect(create).toMatchObject({ presetKey: aKeyValue('new-agent') });
    expect(revoke).toMatchObject({ id: 'key-old' });
    expect(f.lock.taken).toBe(1);
    expect(f.audit.events).toEqual([
      {
        actor: 'admin',
        action: 'config.applied',
        targetType: 'config',
        targetId: null,
        targetName: null,
        details: { summary: result.summary, prune: true, changes: result.changes.filter((change) => change.action !== 'unchanged') },
      },
    ]);
    expect(JSON.stringify(f.audit.events)).not.toContain(aKeyValue('new-agent'));
  });

  it('answers a dry run with the changes and runs and records nothing', async () => {
    const f = setup();
    const result = await f.apply(file(), { dryRun: true });
    expect(result).toMatchObject({ dryRun: true, summary: { create: 1, update: 1, unchanged: 1, delete: 0 } });
    expect(f.commands.executed).toEqual([]);
    expect(f.audit.events).toEqual([]);
  });

  it('runs and records nothing when the file declares what is there', async () => {
    const f = setup();
    const result = await f.apply(declare(aStdioSpec({ name: 'kept' })));
    expect(result.summary).toEqual({ create: 0, update: 0, unchanged: 1, delete: 0 });
    expect(f.commands.executed).toEqual([]);
    expect(f.audit.events).toEqual([]);
    expect(f.uow.runs).toBe(0);
  });

  it('lists every problem of the file, its entries and its keys at once, and applies nothing', async () => {
    const f = setup();
    const sources = [
      { spec: aStdioSpec({ name: 'fresh', command: 'no-such-binary' }), shapeProblems: [] },
      { spec: aStdioSpec({ name: 'kept', timeoutMs: 5000 }), shapeProblems: [{ path: 'maxConcurrency', message: 'must be at least 1' }] },
    ];
    const keys: DeclaredKey[] = [{ spec: { name: 'new-agent', role: 'agent' }, key: aKeyValue('typed-in'), shapeProblems: [] }];
    const error = await rejection(f.applier.execute(new ApplyConfigCommand(sources, [{ path: 'extra', message: 'is not a known key' }], APPLY, 'admin', { keys })));

    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The configuration is invalid; nothing was applied.' });
    expect(error.details.map((problem) => problem.path)).toEqual(['extra', 'sources[0].command', 'sources[1].maxConcurrency', 'keys[0].key']);
    expect(JSON.stringify(error.details)).not.toContain(aKeyValue('typed-in'));
    expect(f.commands.executed).toEqual([]);
    expect(f.audit.events).toEqual([]);
  });

  it('refuses a file with keys from a caller that may not manage them, before planning anything', async () => {
    const f = setup();
    // Thrown as the command is handled, before any promise.
    const error = await rejection(() => f.apply(file(), {}, [newAgent], false));
    expect(error).toMatchObject({
      kind: 'forbidden',
      code: 'FORBIDDEN',
      details: [{ path: 'keys', message: 'needs keys:manage; leave `keys:` out to apply the rest' }],
    });
    expect(f.lock.taken).toBe(0);
    expect(f.commands.executed).toEqual([]);
  });

  it('runs the groups a file declares as the groups API’s commands, after the sources and before the keys, and only for a caller that may manage them', async () => {
    const f = setup();
    const groups = [{ spec: { name: 'support', include: ['kept__echo'] }, shapeProblems: [] }];
    await f.applier.execute(new ApplyConfigCommand(file(), [], APPLY, 'admin', { groups, keys: [newAgent] }));
    expect(f.commands.executed.map((command) => command.constructor.name)).toEqual([
      'UpdateSourceCommand',
      'RegisterSourceCommand',
      'CreateGroupCommand',
      'CreateApiKeyCommand',
    ]);
    expect(f.commands.executed[2]).toEqual(new CreateGroupCommand({ name: 'support', include: ['kept__echo'] }, 'admin'));

    const refused = await rejection(() => f.applier.execute(new ApplyConfigCommand(file(), [], APPLY, 'operator', { groups, keys: [newAgent] }, { groups: false, interceptors: false, keys: false })));
    expect(refused).toMatchObject({
      code: 'FORBIDDEN',
      message: 'The file declares groups and keys: applying it needs groups:manage and keys:manage (the admin role).',
      details: [{ path: 'groups' }, { path: 'keys' }],
    });
  });

  it('runs the interceptors a file declares as the interceptors API’s commands, after the groups and before the keys, and only for a caller that may manage them', async () => {
    const f = setup();
    const groups = [{ spec: { name: 'support', include: ['kept__echo'] }, shapeProblems: [] }];
    const interceptors = [{ spec: { name: 'no-etc', kind: 'deny', rules: [{ argument: 'path', pathUnder: '/etc', message: 'No.' }] }, shapeProblems: [] }];
    const result = await f.applier.execute(new ApplyConfigCommand(file(), [], APPLY, 'admin', { groups, interceptors, keys: [newAgent] }));
    expect(result.changes.filter((change) => change.kind === 'interceptor')).toEqual([{ kind: 'interceptor', name: 'no-etc', action: 'create', fields: [] }]);
    expect(f.commands.executed.map((command) => command.constructor.name)).toEqual([
      'UpdateSourceCommand',
      'RegisterSourceCommand',
      'CreateGroupCommand',
      'CreateInterceptorCommand',
      'CreateApiKeyCommand',
    ]);
    expect(f.commands.executed[3]).toEqual(new CreateInterceptorCommand(interceptors[0]!.spec, 'admin'));

    const refused = await rejection(() => f.applier.execute(new ApplyConfigCommand(file(), [], APPLY, 'operator', { interceptors }, { groups: false, interceptors: false, keys: false })));
    expect(refused).toMatchObject({
      code: 'FORBIDDEN',
      message: 'The file declares interceptors: applying it needs interceptors:manage (the admin role).',
      details: [{ path: 'interceptors', message: 'needs interceptors:manage; leave `interceptors:` out to apply the rest' }],
    });
  });

  it('lists the problems of the interceptors with the others, under their entries, and applies nothing', async () => {
    const f = setup();
    const interceptors = [{ spec: { name: 'hook', kind: 'webhook', phase: 'pre', url: 'https://hook.example.com', signingSecret: 'NOT_STORED' }, shapeProblems: [] }];
    const error = await rejection(f.applier.execute(new ApplyConfigCommand(declare(aStdioSpec({ name: 'kept', command: 'no-such-binary' })), [], APPLY, 'admin', { interceptors })));
    expect(error.details.map((problem) => problem.path)).toEqual(['sources[0].command', 'interceptors[0].signingSecret']);
    expect(f.commands.executed).toEqual([]);
  });

  it('stops at a command that fails, recording no apply', async () => {
    const f = setup();
    f.commands.on(RegisterSourceCommand, () => {
      throw new Error('the database went away');
    });
    await expect(f.apply(file())).rejects.toThrow('the database went away');
    expect(f.commands.executed.map((command) => command.constructor)).toEqual([UpdateSourceCommand, RegisterSourceCommand]);
    expect(f.audit.events).toEqual([]);
  });
});
