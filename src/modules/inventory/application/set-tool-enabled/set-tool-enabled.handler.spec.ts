import { CatalogChanged } from '../../../../shared/catalog-events.js';
import { RecordingCatalogNotifier } from '../../../../shared/testing/recording-catalog-notifier.js';
import { RecordingEventBus } from '../../../../shared/testing/recording-event-bus.js';
import { DirectUnitOfWork } from '../../../../shared/testing/direct-unit-of-work.js';
import { FixedClock } from '../../../../shared/testing/fixed-clock.js';
import { RecordingAuditLog } from '../../../audit/testing/recording-audit-log.js';
import { aSourceTool, DISCOVERED_AT } from '../../testing/builders.js';
import { InMemorySourceToolRepository } from '../../testing/in-memory-source-tool-repository.js';
import { SetToolEnabledCommand } from './set-tool-enabled.command.js';
import { SetToolEnabledHandler } from './set-tool-enabled.handler.js';

const echo = aSourceTool('source-1', 'demo__echo');

function setup() {
  const tools = new InMemorySourceToolRepository([echo]);
  const uow = new DirectUnitOfWork();
  const audit = new RecordingAuditLog(uow);
  const events = new RecordingEventBus();
  const notifier = new RecordingCatalogNotifier();
  const clock = new FixedClock('2026-01-02T00:00:00.000Z');
  const handler = new SetToolEnabledHandler(tools, audit, uow, clock, events.bus, notifier);
  const set = (qualifiedName: string, enabled: boolean) => handler.execute(new SetToolEnabledCommand(qualifiedName, enabled, 'admin'));
  return { tools, audit, events, notifier, clock, set };
}

describe('SetToolEnabledHandler', () => {
  it('stores the tool disabled, audits it, and tells the catalog and the other processes of its source', async () => {
    const f = setup();
    await f.set('demo__echo', false);

    expect(f.tools.stored('demo__echo')).toMatchObject({ enabled: false, updatedAt: f.clock.now() });
    expect(f.audit.events).toEqual([
      { actor: 'admin', action: 'tool.disabled', targetType: 'tool', targetId: echo.snapshot().id, targetName: 'demo__echo', details: {} },
    ]);
    expect(f.notifier.notified).toEqual(['source-1']);
    expect(f.events.published).toEqual([new CatalogChanged('source-1')]);

    await f.set('demo__echo', true);
    expect(f.tools.stored('demo__echo')?.enabled).toBe(true);
    expect(f.audit.events.map((event) => event.action)).toEqual(['tool.disabled', 'tool.enabled']);
  });

  it('changes, audits and publishes nothing for a tool already in that state', async () => {
    const f = setup();
    await f.set('demo__echo', true);
    expect(f.tools.stored('demo__echo')?.updatedAt).toEqual(DISCOVERED_AT);
    expect(f.audit.events).toEqual([]);
    expect(f.events.published).toEqual([]);
    expect(f.notifier.notified).toEqual([]);
  });

  it('answers TOOL_NOT_FOUND for a name no live tool has', async () => {
    const f = setup();
    await f.tools.retireAll('source-1', f.clock.now());
    await expect(f.set('demo__echo', false)).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND', kind: 'not_found' });
    await expect(f.set('demo__nope', false)).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND' });
    expect(f.audit.events).toEqual([]);
  });
});
