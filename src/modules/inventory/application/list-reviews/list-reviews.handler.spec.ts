import { OTHER_SOURCE, reviewsFixture } from '../../testing/reviews-fixture.js';
import { ListReviewsQuery } from './list-reviews.query.js';

describe('ListReviewsHandler', () => {
  it('lists newest first and pages with its cursor to the end', async () => {
    const f = await reviewsFixture();
    const first = await f.list.execute(new ListReviewsQuery({}, undefined, 2));
    expect(first.items.map((r) => r.qualifiedName)).toEqual(['other__three', 'demo__two']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await f.list.execute(new ListReviewsQuery({}, first.nextCursor!, 2));
    expect(second.items.map((r) => r.qualifiedName)).toEqual(['demo__one']);
    expect(second.nextCursor).toBeNull();
  });

  it('filters by state and by source, given by name or by id', async () => {
    const f = await reviewsFixture();
    const byName = await f.list.execute(new ListReviewsQuery({ source: 'demo' }, undefined, 10));
    expect(byName.items.map((r) => r.qualifiedName)).toEqual(['demo__two', 'demo__one']);
    const byId = await f.list.execute(new ListReviewsQuery({ source: OTHER_SOURCE }, undefined, 10));
    expect(byId.items.map((r) => r.source)).toEqual([{ id: OTHER_SOURCE, name: 'other' }]);
    expect((await f.list.execute(new ListReviewsQuery({ state: 'approved' }, undefined, 10))).items).toEqual([]);
    expect((await f.list.execute(new ListReviewsQuery({ state: 'pending' }, undefined, 10))).items).toHaveLength(3);
  });

  it('refuses a cursor it did not issue', async () => {
    const f = await reviewsFixture();
    await expect(f.list.execute(new ListReviewsQuery({}, 'not-a-cursor', 10))).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
  });
});
