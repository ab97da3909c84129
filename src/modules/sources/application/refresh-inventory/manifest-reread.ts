import { Inject, Injectable } from '@nestjs/common';
import { CatalogChangeNotifier } from '../../../../shared/catalog-events.js';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import { Clock, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { canonicalJson } from '../../../../shared/canonical-json.js';
import type { Source, SourceChanges, SourceProps } from '../../domain/source.js';
import { SourceRepository } from '../../domain/source.repository.js';
import { UpstreamDiscovery } from '../../domain/upstream-discovery.port.js';
import { CircuitBreakers } from '../circuit-breakers.js';
import { mergeConnection } from '../merge-connection.js';
import { settingsChange } from '../source-audit-details.js';
import { SourceSpecChecker } from '../source-spec-checker.js';

/** What a plugin directory's manifest gives a source: the manifest's summary and the launch derived from it. */
const FROM_MANIFEST = ['manifest', 'command', 'args', 'cwd'] as const satisfies readonly (keyof SourceChanges)[];

export type ManifestRereadResult =
  | { kind: 'unchanged' }
  /** Stored and audited; `source` is the source as it is now. */
  | { kind: 'changed'; changed: string[]; source: Source }
  /** The source keeps the manifest it had. */
  | { kind: 'invalid'; problems: ProblemDetail[] };

/**
 * Reads the manifest of a stdio source's plugin directory again, as a refresh begins, and checks the
 * source with it as registration does. What changed (the manifest's summary, the command, arguments
 * and working directory derived from it) is stored, with an audit event giving each before and
 * after; the source's pooled process and circuit, which belong to the old launch, are let go.
 */
@Injectable()
export class ManifestReread {
  constructor(
    @Inject(SourceSpecChecker) private readonly checker: SourceSpecChecker,
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(CatalogChangeNotifier) private readonly notifier: CatalogChangeNotifier,
    @Inject(UpstreamDiscovery) private readonly discovery: UpstreamDiscovery,
    @Inject(CircuitBreakers) private readonly circuits: CircuitBreakers,
  ) {}

  async reread(source: Source, actor: string): Promise<ManifestRereadResult> {
    const current = source.snapshot();
    if (current.transport !== 'stdio' || current.pluginDir === null) return { kind: 'unchanged' };
    const checked = await this.checker.check(mergeConnection(current, {}));
    if (!checked.connection) return { kind: 'invalid', problems: checked.problems };
    const derived = checked.connection;
    const changed = FROM_MANIFEST.filter((key) => canonicalJson(derived[key]) !== canonicalJson(current[key]));
    if (changed.length === 0) return { kind: 'unchanged' };

    const saved = await this.uow.run(async () => {
      const locked = await this.sources.findLive(current.id, { lock: true });
      // Changed meanwhile (an update): what was derived here is out of date; the next refresh reads again.
      if (!locked || locked.version !== source.version) return undefined;
      const before = locked.snapshot();
      const update: SourceChanges = Object.fromEntries(changed.map((key) => [key, derived[key]]));
      const { connectionChanged } = locked.update(update, this.clock.now());
      await this.sources.save(locked);
      await this.audit.record({
        actor,
        action: 'source.updated',
        targetType: 'source',
        targetId: locked.id,
        targetName: locked.name,
        details: { trigger: 'manifest', changed, ...settingsChange(asRecord(before), asRecord(locked.snapshot()), changed) },
      });
      await this.notifier.notifyOthers(locked.id);
      return { source: locked, connectionChanged };
    });
    if (!saved) return { kind: 'unchanged' };
    if (saved.connectionChanged) {
      await this.discovery.release(current.id);
      this.circuits.forget(current.id);
    }
    return { kind: 'changed', changed: [...changed], source: saved.source };
  }
}

function asRecord(props: Readonly<SourceProps>): Record<string, unknown> {
  return props as unknown as Record<string, unknown>;
}
