import { Inject } from '@nestjs/common';
import { CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { CatalogChangeNotifier, CatalogChanged } from '../../../../shared/catalog-events.js';
import { Clock, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { isUuid } from '../../../../shared/uuid.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { DefinitionReviewRepository } from '../../domain/pinning/definition-review.repository.js';
import { SourceToolRepository } from '../../domain/source-tool.repository.js';
import { toReviewView, type ReviewView } from '../review-views.js';
import { reviewNotFound } from '../tool-errors.js';
import { DecideReviewCommand } from './decide-review.command.js';

/**
 * A reviewer's decision on a held definition, with its audit event, in one transaction. Approving
 * makes the definition the approved one and serves it; rejecting keeps it held until the upstream
 * changes it again. The tool is locked before its review, in the order a refresh takes them.
 */
@CommandHandler(DecideReviewCommand)
export class DecideReviewHandler implements ICommandHandler<DecideReviewCommand, ReviewView> {
  constructor(
    @Inject(DefinitionReviewRepository) private readonly reviews: DefinitionReviewRepository,
    @Inject(SourceToolRepository) private readonly tools: SourceToolRepository,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(EventBus) private readonly events: EventBus,
    @Inject(CatalogChangeNotifier) private readonly notifier: CatalogChangeNotifier,
  ) {}

  async execute({ reviewId, decision, comment, actor }: DecideReviewCommand): Promise<ReviewView> {
    if (!isUuid(reviewId)) throw reviewNotFound(reviewId);
    const { view, changedSource } = await this.uow.run(async () => {
      const unlocked = await this.reviews.find(reviewId);
      if (!unlocked) throw reviewNotFound(reviewId);
      const tool = await this.tools.findLive(unlocked.snapshot().toolId, { lock: true });
      const review = (await this.reviews.find(reviewId, { lock: true }))!;
      const now = this.clock.now();
      if (decision === 'approve') review.approve(actor, comment, now);
      else review.reject(actor, comment, now);
      const r = review.snapshot();
      // A pending review is always of the tool's current definition (a newer one supersedes it).
      const current = tool !== undefined && tool.definitionHash === r.definitionHash;
      if (current) {
        if (decision === 'approve') tool.approveCurrent(now);
        else tool.hold('rejected', now);
        await this.tools.saveAll([tool]);
      }
      await this.reviews.saveAll([review]);
      await this.audit.record({
        actor,
        action: decision === 'approve' ? 'tool.definition-approved' : 'tool.definition-rejected',
        targetType: 'tool',
        targetId: r.toolId,
        targetName: r.qualifiedName,
        details: { review: r.id, source: r.sourceName, definitionHash: r.definitionHash, previousHash: r.previousHash, changes: r.changes, comment },
      });
      if (current) await this.notifier.notifyOthers(r.sourceId);
      return { view: toReviewView(r), changedSource: current ? r.sourceId : undefined };
    });
    if (changedSource) this.events.publish(new CatalogChanged(changedSource));
    return view;
  }
}
