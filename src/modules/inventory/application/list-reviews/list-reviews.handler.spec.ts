import { randomUUID } from 'node:crypto';
import type { IdGenerator } from '../../../../shared/unit-of-work.js';
import { FixedClock } from '../../../../shared/testing/fixed-clock.js';
import { aToolDefinition } from '../../testing/builders.js';
import { InMemoryDefinitionReviewRepository } from '../../testing/in-memory-definition-review-repository.js';
import { InMemoryReviewViews } from '../../testing/in-memory-review-views.js';
import { InMemorySourceToolRepository } from '../../testing/in-memory-source-tool-repository.js';
import { GetReviewHandler } from '../get-review/get-review.handler.js';
import { GetReviewQuery } from '../get-review/get-review.query.js';
import { InventorySync } from '../sync-inventory/inventory-sync.js';
import { ListReviewsHandler } from './list-reviews.handler.js';
import { ListReviewsQuery } from './list-reviews.query.js';

const uuids: IdGenerator = { next: () => randomUUID() };
const DEMO = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

/** Three reviews a minute apart: demo__one and demo__two new under review on "demo", other__three on "other". */
async function setup() {
  const reviews = new InMemoryDefinitionReviewRepository();
  const clock = new FixedClock('2026-03-01T00:00:00.000Z');
  const sync = new InventorySync(new InMemorySourceToolRepository(), reviews, clock, uuids);
  await sync.apply(DEMO, 'demo', [aToolDefinition('one')], 'review');
  clock.advance(60_000);
  await sync.apply(DEMO, 'demo', [aToolDefinition('one'), aToolDefinition('two')], 'review');
  clock.advance(60_000);
  await sync.apply(OTHER, 'other', [aToolDefinition('three')], 'review');
  const views = new InMemoryReviewViews(reviews);
  return { reviews, list: new ListReviewsHandler(views), get: new GetReviewHandler(views) };
}

describe('ListReviewsHandler', () => {
  it('lists newest first and pages with its cursor to the end', async () => {
    const f = await setup();
    const first = await f.list.execute(new ListReviewsQuery({}, undefined, 2));
    expect(first.items.map((r) => r.qualifiedName)).toEqual(['other__three', 'demo__two']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await f.list.execute(new ListReviewsQuery({}, first.nextCursor!, 2));
    expect(second.items.map((r) => r.qualifiedName)).toEqual(['demo__one']);
    expect(second.nextCursor).toBeNull();
  });

  it('filters by state and by source, given by name or by id', async () => {
    const f = await setup();
    const byName = await f.list.execute(new ListReviewsQuery({ source: 'demo' }, undefined, 10));
    expect(byName.items.map((r) => r.qualifiedName)).toEqual(['demo__two', 'demo__one']);
    const byId = await f.list.execute(new ListReviewsQuery({ source: OTHER }, undefined, 10));
    expect(byId.items.map((r) => r.source)).toEqual([{ id: OTHER, name: 'other' }]);
    expect((await f.list.execute(new ListReviewsQuery({ state: 'approved' }, undefined, 10))).items).toEqual([]);
    expect((await f.list.execute(new ListReviewsQuery({ state: 'pending' }, undefined, 10))).items).toHaveLength(3);
  });

  it('refuses a cursor it did not issue', async () => {
    const f = await setup();
    await expect(f.list.execute(new ListReviewsQuery({}, 'not-a-cursor', 10))).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
  });
});

describe('GetReviewHandler', () => {
  it('answers the review as the API shows it: a new tool has no previous definition and no diff', async () => {
    const f = await setup();
    const stored = f.reviews.all()[0]!;
    const view = await f.get.execute(new GetReviewQuery(stored.id));
    expect(view).toMatchObject({ id: stored.id, state: 'pending', qualifiedName: 'demo__one', previousDefinition: null, diff: null, decidedAt: null, createdAt: '2026-03-01T00:00:00.000Z' });
  });

  it('answers REVIEW_NOT_FOUND for an unknown id and for an id that is not a UUID', async () => {
    const f = await setup();
    await expect(f.get.execute(new GetReviewQuery(randomUUID()))).rejects.toMatchObject({ code: 'REVIEW_NOT_FOUND' });
    await expect(f.get.execute(new GetReviewQuery("1' or '1'='1"))).rejects.toMatchObject({ code: 'REVIEW_NOT_FOUND' });
  });
});
