export type AuditAction =
  | 'source.registered'
  | 'source.updated'
  | 'source.removed'
  | 'source.enabled'
  | 'source.disabled'
  | 'source.refreshed'
  | 'source.validated'
  | 'source.access-refused'
  | 'tool.enabled'
  | 'tool.disabled'
  | 'tool.definition-approved'
  | 'tool.definition-rejected'
  | 'secret.put'
  | 'secret.deleted'
  | 'user_secret.put'
  | 'user_secret.deleted'
  | 'api-key.created'
  | 'api-key.revoked'
  | 'api-key.updated'
  | 'config.applied'
  | 'group.created'
  | 'group.updated'
  | 'group.removed'
  | 'interceptor.created'
  | 'interceptor.updated'
  | 'interceptor.removed'
  | 'approval.requested'
  | 'approval.approved'
  | 'approval.denied'
  | 'approval.expired'
  | 'approval.withdrawn'
  | 'executions.purged'
  | 'connection.granted'
  | 'connection.refresh_failed'
  | 'connection.revoked';

/** One administrative change: who did what to which object. Details never hold secret values. */
export interface AuditEvent {
  id: string;
  occurredAt: Date;
  actor: string;
  action: AuditAction;
  targetType: 'source' | 'tool' | 'secret' | 'user-secret' | 'api-key' | 'config' | 'executions' | 'group' | 'interceptor' | 'approval';
  targetId: string | null;
  targetName: string | null;
  details: Record<string, unknown>;
  /** The HTTP request that made the change (its X-Request-Id), when one did. */
  requestId?: string | null;
  /** The client's address, when a request made the change. */
  clientAddress?: string | null;
}

/** Port: written inside the command's own transaction, so a change and its record land together. */
export abstract class AuditLog {
  abstract record(event: Omit<AuditEvent, 'id' | 'occurredAt'>): Promise<void>;
}
