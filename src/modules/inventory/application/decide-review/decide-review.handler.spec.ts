import { randomUUID } from 'node:crypto';
import { CatalogChanged } from '../../../../shared/catalog-events.js';
import type { IdGenerator } from '../../../../shared/unit-of-work.js';
import { DirectUnitOfWork } from '../../../../shared/testing/direct-unit-of-work.js';
import { FixedClock } from '../../../../shared/testing/fixed-clock.js';
import { RecordingCatalogNotifier } from '../../../../shared/testing/recording-catalog-notifier.js';
import { RecordingEventBus } from '../../../../shared/testing/recording-event-bus.js';
import { RecordingAuditLog } from '../../../audit/testing/recording-audit-log.js';
import { aToolDefinition } from '../../testing/builders.js';
import { InMemoryDefinitionReviewRepository } from '../../testing/in-memory-definition-review-repository.js';
import { InMemorySourceToolRepository } from '../../testing/in-memory-source-tool-repository.js';
import { InventorySync } from '../sync-inventory/inventory-sync.js';
import { DecideReviewCommand } from './decide-review.command.js';
import { DecideReviewHandler } from './decide-review.handler.js';

/** Review ids are UUIDs (a route's id is looked up only then). */
const uuids: IdGenerator = { next: () => randomUUID() };

async function setup() {
  const tools = new InMemorySourceToolRepository();
  const reviews = new InMemoryDefinitionReviewRepository();
  const uow = new DirectUnitOfWork();
  const audit = new RecordingAuditLog(uow);
  const events = new RecordingEventBus();
  const notifier = new RecordingCatalogNotifier();
  const clock = new FixedClock('2026-01-02T00:00:00.000Z');
  const sync = new InventorySync(tools, reviews, clock, uuids);
  // A tool approved as first listed, then changed under review.
  await sync.apply('source-1', 'demo', [aToolDefinition('echo', { annotations: { readOnlyHint: true } })], 'off');
  await sync.apply('source-1', 'demo', [aToolDefinition('echo', { annotations: { readOnlyHint: false } })], 'review');
  const review = reviews.all()[0]!;
  const handler = new DecideReviewHandler(reviews, tools, audit, uow, clock, events.bus, notifier);
  const decide = (decision: 'approve' | 'reject', id = review.id) => handler.execute(new DecideReviewCommand(id, decision, 'looked at it', 'reviewer-1'));
  return { tools, reviews, audit, events, notifier, clock, review, decide };
}

describe('DecideReviewHandler', () => {
  it('approves: the definition becomes the approved one and is served; audited in the unit of work; the catalog told', async () => {
    const f = await setup();
    expect(f.review).toMatchObject({ state: 'pending', changes: ['annotations_changed', 'more_destructive'] });
    expect(f.tools.stored('demo__echo')).toMatchObject({ reviewState: 'pending_review' });

    const view = await f.decide('approve');

    expect(view).toMatchObject({ state: 'approved', decidedBy: 'reviewer-1', comment: 'looked at it', diff: { annotations: [{ name: 'readOnlyHint', before: true, after: false }] } });
    const stored = f.tools.stored('demo__echo')!;
    expect(stored).toMatchObject({ reviewState: 'approved', approvedHash: stored.definitionHash, approvedDefinition: { annotations: { readOnlyHint: false } } });
    expect(f.audit.events).toEqual([
      expect.objectContaining({ actor: 'reviewer-1', action: 'tool.definition-approved', targetType: 'tool', targetName: 'demo__echo', details: expect.objectContaining({ review: f.review.id, comment: 'looked at it' }) }),
    ]);
    expect(f.notifier.notified).toEqual(['source-1']);
    expect(f.events.published).toEqual([new CatalogChanged('source-1')]);
  });

  it('rejects: the tool stays held, now rejected, and the approved definition stays the one before', async () => {
    const f = await setup();
    const approvedBefore = f.tools.stored('demo__echo')!.approvedHash;
    await f.decide('reject');
    expect(f.tools.stored('demo__echo')).toMatchObject({ reviewState: 'rejected', approvedHash: approvedBefore });
    expect(f.reviews.all()[0]).toMatchObject({ state: 'rejected', decidedBy: 'reviewer-1' });
    expect(f.audit.events.map((e) => e.action)).toEqual(['tool.definition-rejected']);
  });

  it('refuses a second decision (409) and an unknown review (404), writing nothing', async () => {
    const f = await setup();
    await f.decide('approve');
    await expect(f.decide('reject')).rejects.toMatchObject({ code: 'REVIEW_ALREADY_DECIDED' });
    await expect(f.decide('approve', '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'REVIEW_NOT_FOUND' });
    await expect(f.decide('approve', 'not-a-uuid')).rejects.toMatchObject({ code: 'REVIEW_NOT_FOUND' });
    expect(f.audit.events).toHaveLength(1);
    expect(f.tools.stored('demo__echo')?.reviewState).toBe('approved');
  });
});
