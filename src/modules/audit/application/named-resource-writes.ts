import { Inject, Injectable } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import { CatalogChangeNotifier } from '../../../shared/catalog-events.js';
import type { DomainError } from '../../../shared/domain-error.js';
import { fieldChanges, firstRevision, nextRevision, type NamedRepository, type Revision } from '../../../shared/named-resource.js';
import { Clock, IdGenerator, UnitOfWork } from '../../../shared/unit-of-work.js';
import { AuditLog } from '../domain/audit-event.js';

/** What every kind's writes use: the trail, the unit of work, time and ids, and who to tell of a change. */
@Injectable()
export class NamedResourceWriting {
  constructor(
    @Inject(AuditLog) readonly audit: AuditLog,
    @Inject(UnitOfWork) readonly uow: UnitOfWork,
    @Inject(Clock) readonly clock: Clock,
    @Inject(IdGenerator) readonly ids: IdGenerator,
    @Inject(EventBus) readonly events: Pick<EventBus, 'publish'>,
    @Inject(CatalogChangeNotifier) readonly notifier: CatalogChangeNotifier,
  ) {}
}

/** One kind of named resource as its writes treat it: how it is audited, its errors, and who hears of a change. */
export interface NamedResourceKind<S extends { name: string }> {
  /** The audit events' target type, and their actions' prefix (`group.created`). */
  readonly noun: 'group' | 'interceptor';
  notFound(name: string): DomainError;
  taken(name: string): DomainError;
  /** What the audit trail shows of it: all of it when created, the fields that moved when changed. */
  auditForm(spec: S): Record<string, unknown>;
  /** Inside the change's unit of work: tells the other processes, so the news travels only if it commits. */
  announce(name: string): Promise<void>;
  /** After the commit: this process takes the change in. */
  changed(name: string): Promise<void>;
}

/**
 * The writes of an administrator's named, versioned resource (a tool group, an interceptor), each
 * in one unit of work with its audit event: created under a name not taken, changed in place (a
 * new version only when a field moved), removed. What is written was checked by the caller.
 */
export class NamedResourceWrites<S extends { name: string }> {
  constructor(
    private readonly kind: NamedResourceKind<S>,
    private readonly repository: NamedRepository<S & Revision>,
    private readonly writing: NamedResourceWriting,
  ) {}

  async create(spec: S, actor: string): Promise<S & Revision> {
    const resource: S & Revision = { ...spec, ...firstRevision(this.writing.ids.next(), actor, this.writing.clock.now()) };
    await this.writing.uow.run(async () => {
      if (await this.repository.findByName(resource.name, { lock: true })) throw this.kind.taken(resource.name);
      await this.repository.insert(resource);
      await this.record(actor, 'created', resource, this.kind.auditForm(resource));
    });
    await this.kind.changed(resource.name);
    return resource;
  }

  /** `revise` answers the whole of what it is to become (and may refuse, throwing), over the stored one locked. */
  async update(name: string, actor: string, revise: (current: S & Revision) => S | Promise<S>): Promise<S & Revision> {
    const result = await this.writing.uow.run(async () => {
      const current = await this.repository.findByName(name, { lock: true });
      if (!current) throw this.kind.notFound(name);
      const spec = await revise(current);
      const changes = fieldChanges(this.kind.auditForm(current), this.kind.auditForm(spec));
      if (!changes) return { resource: current, changed: false };
      const updated: S & Revision = { ...current, ...spec, ...nextRevision(current, actor, this.writing.clock.now()) };
      await this.repository.update(updated);
      await this.record(actor, 'updated', current, changes);
      return { resource: updated, changed: true };
    });
    if (result.changed) await this.kind.changed(name);
    return result.resource;
  }

  /** Answers it as it was. */
  async remove(name: string, actor: string): Promise<S & Revision> {
    const removed = await this.writing.uow.run(async () => {
      const found = await this.repository.findByName(name, { lock: true });
      if (!found) throw this.kind.notFound(name);
      await this.repository.delete(found.id);
      await this.record(actor, 'removed', found, {});
      return found;
    });
    await this.kind.changed(name);
    return removed;
  }

  private async record(actor: string, what: 'created' | 'updated' | 'removed', resource: S & Revision, details: Record<string, unknown>): Promise<void> {
    const { noun } = this.kind;
    await this.writing.audit.record({ actor, action: `${noun}.${what}`, targetType: noun, targetId: resource.id, targetName: resource.name, details });
    await this.kind.announce(resource.name);
  }
}
