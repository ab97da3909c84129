import { randomUUID } from 'node:crypto';
import { aToolDefinition } from '../../testing/builders.js';
import { DEMO_SOURCE, reviewsFixture } from '../../testing/reviews-fixture.js';
import { GetReviewQuery } from './get-review.query.js';

describe('GetReviewHandler', () => {
  it('answers the review as the API shows it: a new tool has no previous definition and no diff', async () => {
    const f = await reviewsFixture();
    const stored = f.reviews.all()[0]!;
    const view = await f.get.execute(new GetReviewQuery(stored.id));
    expect(view).toMatchObject({ id: stored.id, state: 'pending', qualifiedName: 'demo__one', previousDefinition: null, diff: null, decidedAt: null, createdAt: '2026-03-01T00:00:00.000Z' });
  });

  it('answers a changed definition with the approved one before it and what changed between them', async () => {
    const f = await reviewsFixture();
    await f.sync.apply(DEMO_SOURCE, 'demo', [aToolDefinition('four')], 'off');
    f.clock.advance(60_000);
    await f.sync.apply(DEMO_SOURCE, 'demo', [aToolDefinition('four', { description: 'now with a description' })], 'review');
    const changed = f.reviews.all().find((review) => review.qualifiedName === 'demo__four')!;
    const view = await f.get.execute(new GetReviewQuery(changed.id));
    expect(view.previousDefinition).toEqual({ name: 'four', inputSchema: { type: 'object' } });
    expect(view.definition).toMatchObject({ description: 'now with a description' });
    expect(view.diff).toMatchObject({ name: null, inputSchema: null, description: { before: null, after: 'now with a description' } });
  });

  it('answers REVIEW_NOT_FOUND for an unknown id and for an id that is not a UUID', async () => {
    const f = await reviewsFixture();
    await expect(f.get.execute(new GetReviewQuery(randomUUID()))).rejects.toMatchObject({ code: 'REVIEW_NOT_FOUND' });
    await expect(f.get.execute(new GetReviewQuery("1' or '1'='1"))).rejects.toMatchObject({ code: 'REVIEW_NOT_FOUND' });
  });
});
