import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../../../../config/app-config.js';
import { ProblemList } from '../../../../shared/domain-error.js';
import { UnitOfWork } from '../../../../shared/unit-of-work.js';
import { maskUrlCredentials } from '../../../../shared/url-credentials.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { sourceAuditDetails } from '../source-audit-details.js';
import { InventorySync } from '../../../inventory/application/sync-inventory/inventory-sync.js';
import { SourceRepository } from '../../domain/source.repository.js';
import { UpstreamDiscovery } from '../../domain/upstream-discovery.port.js';
import { SourceSpecChecker } from '../source-spec-checker.js';
import { UpstreamTargetResolver } from '../upstream-target-resolver.js';
import { ValidateSourceQuery, ValidationReport } from './validate-source.query.js';

@QueryHandler(ValidateSourceQuery)
export class ValidateSourceHandler implements IQueryHandler<ValidateSourceQuery, ValidationReport> {
  constructor(
    @Inject(SourceSpecChecker) private readonly checker: SourceSpecChecker,
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(UpstreamTargetResolver) private readonly targets: UpstreamTargetResolver,
    @Inject(UpstreamDiscovery) private readonly discovery: UpstreamDiscovery,
    @Inject(InventorySync) private readonly inventory: InventorySync,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
  ) {}

  async execute(query: ValidateSourceQuery): Promise<ValidationReport> {
    const report = await this.dryRun(query);
    // Audited because it starts the command: a check without the connection starts nothing.
    if (!query.connect) return report;
    await this.uow.run(() =>
      this.audit.record({
        actor: query.actor,
        action: 'source.validated',
        targetType: 'source',
        targetId: null,
        targetName: typeof query.spec.name === 'string' ? query.spec.name.slice(0, 200) : null,
        details: { ...sourceAuditDetails(report.resolved), valid: report.valid, problems: report.problems.length },
      }),
    );
    return report;
  }

  private async dryRun({ spec, shapeProblems, connect }: ValidateSourceQuery): Promise<ValidationReport> {
    const problems = new ProblemList();
    problems.addAll(shapeProblems);
    const checked = await this.checker.check(spec, problems);
    problems.addAll(checked.problems);
    if (typeof spec.name === 'string' && !problems.has('name') && (await this.sources.nameTaken(spec.name))) {
      problems.add('name', 'is already taken');
    }
    const connection = checked.connection;
    const report: ValidationReport = {
      valid: false,
      problems: [...problems.all],
      notes: checked.notes,
      resolved: connection
        ? {
            transport: connection.transport,
            lifecycle: connection.lifecycle,
            command: connection.command,
            args: connection.args,
            cwd: connection.cwd,
            url: maskUrlCredentials(connection.url),
            manifest: connection.manifest ? { file: connection.manifest.file, name: connection.manifest.name, version: connection.manifest.version } : null,
          }
        : null,
      connection: null,
      tools: [],
    };
    // A body of the wrong shape is not run: its command or URL may not be what the caller meant.
    if (!connection || shapeProblems.length > 0) return report;
    if (!connect) {
      report.valid = report.problems.length === 0;
      return report;
    }

    // A throwaway identity and a transient connection: the dry run owns no pooled state.
    const previewId = randomUUID();
    const started = performance.now();
    try {
      const target = await this.targets.resolve({ ...connection, id: previewId, name: spec.name, lifecycle: 'transient', upstream: null });
      const found = await this.discovery.discover(target, { timeoutMs: this.config.discoveryTimeoutMs });
      const names = new Map(this.inventory.preview(spec.name, found.tools).map((t) => [t.name, t.qualifiedName]));
      const pinning = await this.inventory.previewPinning(spec.name, found.tools, spec.pinning);
      report.connection = {
        ok: true,
        durationMs: Math.round(performance.now() - started),
        protocol: { era: found.era, version: found.protocolVersion },
        serverInfo: found.serverInfo,
      };
      report.tools = found.tools.map((t) => ({
        name: t.name,
        qualifiedName: names.get(t.name) ?? '',
        title: t.title,
        description: t.description,
        annotations: t.annotations,
        findings: pinning.get(t.name)?.findings ?? [],
        held: pinning.get(t.name)?.held ?? false,
      }));
    } catch (error) {
      report.connection = { ok: false, error: error instanceof Error ? error.message : String(error), durationMs: Math.round(performance.now() - started) };
    } finally {
      await this.discovery.forget(previewId);
    }
    report.valid = report.problems.length === 0 && report.connection.ok;
    return report;
  }
}
