import { randomUUID } from 'node:crypto';
import type { IdGenerator } from '../../../shared/unit-of-work.js';
import { FixedClock } from '../../../shared/testing/fixed-clock.js';
import { GetReviewHandler } from '../application/get-review/get-review.handler.js';
import { ListReviewsHandler } from '../application/list-reviews/list-reviews.handler.js';
import { InventorySync } from '../application/sync-inventory/inventory-sync.js';
import { aToolDefinition } from './builders.js';
import { InMemoryDefinitionReviewRepository } from './in-memory-definition-review-repository.js';
import { InMemoryReviewViews } from './in-memory-review-views.js';
import { InMemorySourceToolRepository } from './in-memory-source-tool-repository.js';

export const DEMO_SOURCE = '00000000-0000-4000-8000-000000000001';
export const OTHER_SOURCE = '00000000-0000-4000-8000-000000000002';

const uuids: IdGenerator = { next: () => randomUUID() };

/**
 * Three reviews a minute apart: demo__one and demo__two new under review on "demo", other__three on
 * "other"; and the two review queries' handlers over them.
 */
export async function reviewsFixture() {
  const reviews = new InMemoryDefinitionReviewRepository();
  const clock = new FixedClock('2026-03-01T00:00:00.000Z');
  const sync = new InventorySync(new InMemorySourceToolRepository(), reviews, clock, uuids);
  await sync.apply(DEMO_SOURCE, 'demo', [aToolDefinition('one')], 'review');
  clock.advance(60_000);
  await sync.apply(DEMO_SOURCE, 'demo', [aToolDefinition('one'), aToolDefinition('two')], 'review');
  clock.advance(60_000);
  await sync.apply(OTHER_SOURCE, 'other', [aToolDefinition('three')], 'review');
  const views = new InMemoryReviewViews(reviews);
  return { reviews, sync, clock, list: new ListReviewsHandler(views), get: new GetReviewHandler(views) };
}
