import { rejection } from '../../../../shared/testing/rejection.js';
import { accessFixture } from '../../testing/access-fixture.js';
import { anApiKey } from '../../testing/builders.js';
import { InMemoryScopedTools } from '../../testing/in-memory-scoped-tools.js';
import { ExplainAccessHandler } from './explain-access.handler.js';
import { ExplainAccessQuery } from './explain-access.query.js';

describe('ExplainAccessHandler', () => {
  const keys = {
    any: anApiKey('any'),
    files: anApiKey('files-only', { scope: { sources: ['files'] } }),
    reader: anApiKey('reader', { scope: { sources: ['files'], tools: ['files__read*'] } }),
    auditor: anApiKey('auditor', { role: 'auditor' }),
    revoked: anApiKey('revoked', { revokedAt: new Date('2026-02-01T00:00:00Z'), scope: { sources: ['files'] } }),
    expired: anApiKey('expired', { expiresAt: new Date('2026-02-01T00:00:00Z'), role: 'auditor' }),
    support: anApiKey('support-bot', { scope: { groups: ['support*'] } }),
  };
  const f = accessFixture(Object.values(keys));
  const tools = new InMemoryScopedTools([
    { qualifiedName: 'files__read_file', sourceName: 'files' },
    { qualifiedName: 'files__write_file', sourceName: 'files' },
    { qualifiedName: 'memory__store', sourceName: 'memory' },
  ]);
  const explain = (principal: string, tool: string, group?: string) => new ExplainAccessHandler(f.keys, tools, f.clock).execute(new ExplainAccessQuery(principal, tool, group));

  it('answers the principal as the decision sees it, and the rule that decides', async () => {
    expect(await explain(keys.reader.id, 'files__write_file')).toEqual({
      principal: { id: keys.reader.id, name: 'reader', kind: 'api-key', roles: ['agent'], allowedSources: ['files'], allowedTools: ['files__read*'], allowedGroups: null },
      tool: 'files__write_file',
      group: null,
      allowed: false,
      rule: 'allowedTools: "files__write_file" matches none of ["files__read*"]',
    });
  });

  it('decides by the key’s state first, then its role, then its scope', async () => {
    const decisions = async (tool: string) =>
      Object.fromEntries(await Promise.all(Object.entries(keys).map(async ([name, key]) => [name, await explain(key.id, tool).then(({ allowed, rule }) => `${allowed} ${rule}`)])));

    expect(await decisions('memory__store')).toEqual({
      any: 'true role: no tool restriction',
      files: 'false allowedSources: "memory" matches none of ["files"]',
      reader: 'false allowedSources: "memory" matches none of ["files"]',
      auditor: 'false role: auditor does not hold tools:invoke',
      revoked: 'false key: revoked',
      expired: 'false key: expired',
      support: 'false allowedGroups: only through the groups ["support*"], not outside a group',
    });
    expect(await explain(keys.files.id, 'files__write_file')).toMatchObject({ allowed: true, rule: 'allowedSources: "files" matches "files"' });
    expect(await explain(keys.reader.id, 'files__read_file')).toMatchObject({ allowed: true, rule: 'allowedTools: "files__read_file" matches "files__read*"' });
  });

  it('names the group rule for a key bound to groups, through a group and outside one', async () => {
    expect(await explain(keys.support.id, 'memory__store', 'support-bot')).toMatchObject({
      principal: { allowedGroups: ['support*'] },
      group: 'support-bot',
      allowed: true,
      rule: 'allowedGroups: group "support-bot" matches "support*"',
    });
    expect(await explain(keys.support.id, 'memory__store', 'billing')).toMatchObject({ allowed: false, rule: 'allowedGroups: group "billing" matches none of ["support*"]' });
    expect(await explain(keys.any.id, 'memory__store', 'billing')).toMatchObject({ allowed: true, rule: 'role: no tool restriction' });
    expect(await explain(keys.reader.id, 'files__write_file', 'support')).toMatchObject({ allowed: false, rule: 'allowedTools: "files__write_file" matches none of ["files__read*"]' });
  });

  it('explains the admin without looking a key up', async () => {
    f.keys.lookedUp.splice(0);
    expect(await explain('admin', 'memory__store')).toEqual({
      principal: { id: 'admin', name: 'admin', kind: 'bootstrap-key', roles: ['admin'], allowedSources: null, allowedTools: null, allowedGroups: null },
      tool: 'memory__store',
      group: null,
      allowed: true,
      rule: 'role: no tool restriction',
    });
    expect(f.keys.lookedUp).toEqual([]);
  });

  it('answers API_KEY_NOT_FOUND for a principal that is neither a key nor the admin, and TOOL_NOT_FOUND for an unknown tool', async () => {
    for (const principal of ['00000000-0000-4000-b000-ffffffffffff', 'any']) {
      expect(await rejection(explain(principal, 'memory__store'))).toMatchObject({ kind: 'not_found', code: 'API_KEY_NOT_FOUND' });
    }
    expect(await rejection(explain(keys.revoked.id, `nothing__${'x'.repeat(200)}`))).toMatchObject({
      kind: 'not_found',
      code: 'TOOL_NOT_FOUND',
      message: `No tool named "nothing__${'x'.repeat(91)}".`,
    });
  });
});
