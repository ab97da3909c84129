import type { AuditEvent } from '../domain/audit-event.js';

let made = 0;

/** The admin putting a secret, each event a second after the one made before it and with an id that sorts after its id, with `overrides`. */
export function anAuditEvent(overrides: Partial<AuditEvent> = {}): AuditEvent {
  made += 1;
  return {
    id: `00000000-0000-4000-a000-${made.toString(16).padStart(12, '0')}`,
    occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, made)),
    actor: 'admin',
    action: 'secret.put',
    targetType: 'secret',
    targetId: null,
    targetName: 'GITHUB_TOKEN',
    details: { created: true },
    ...overrides,
  };
}
