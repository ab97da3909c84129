import { RecordingAuditLog } from '../../../audit/testing/recording-audit-log.js';
import { FixedClock } from '../../../../shared/testing/fixed-clock.js';
import { RecordSourceRefusalCommand, type SourceRefusal } from './record-source-refusal.command.js';
import { RecordSourceRefusalHandler, REFUSAL_EVENT_INTERVAL_MS } from './record-source-refusal.handler.js';

describe('RecordSourceRefusalHandler', () => {
  const refusal = (method: string, principalId = 'key-1'): SourceRefusal => ({
    principalId,
    sourceId: 'source-id',
    sourceName: 'everything',
    endpoint: '/mcp/sources/everything',
    method,
    rule: 'allowedSources: "everything" matches none of ["memory"]',
    requestId: 'req-1',
    clientAddress: '127.0.0.1',
  });

  it('writes a refusal as an audit event naming the principal, the source, the method and the rule', async () => {
    const audit = new RecordingAuditLog();
    await new RecordSourceRefusalHandler(audit, new FixedClock()).execute(new RecordSourceRefusalCommand(refusal('resources/read')));
    expect(audit.events).toEqual([
      {
        actor: 'key-1',
        action: 'source.access-refused',
        targetType: 'source',
        targetId: 'source-id',
        targetName: 'everything',
        details: { endpoint: '/mcp/sources/everything', method: 'resources/read', rule: 'allowedSources: "everything" matches none of ["memory"]' },
        requestId: 'req-1',
        clientAddress: '127.0.0.1',
      },
    ]);
  });

  it('writes one event a minute per principal, source and method, the next one counting those left out', async () => {
    const audit = new RecordingAuditLog();
    const clock = new FixedClock();
    const handler = new RecordSourceRefusalHandler(audit, clock);
    const refuse = (method: string, principalId?: string) => handler.execute(new RecordSourceRefusalCommand(refusal(method, principalId)));
    for (let i = 0; i < 5; i++) await refuse('resources/read');
    await refuse('prompts/get');
    await refuse('resources/read', 'key-2');
    expect(audit.events.map((event) => `${event.actor} ${String(event.details.method)}`)).toEqual(['key-1 resources/read', 'key-1 prompts/get', 'key-2 resources/read']);

    clock.advance(REFUSAL_EVENT_INTERVAL_MS - 1);
    await refuse('resources/read');
    expect(audit.events).toHaveLength(3);
    clock.advance(1);
    await refuse('resources/read');
    expect(audit.events).toHaveLength(4);
    expect(audit.events[3]!.details).toMatchObject({ method: 'resources/read', omittedSincePrevious: 5 });
    clock.advance(REFUSAL_EVENT_INTERVAL_MS);
    await refuse('resources/read');
    expect(audit.events[4]!.details.omittedSincePrevious).toBeUndefined();
  });
});
