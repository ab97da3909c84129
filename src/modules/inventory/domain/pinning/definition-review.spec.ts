import { Conflict } from '../../../../shared/domain-error.js';
import { DefinitionReview } from './definition-review.js';

const at = new Date('2026-01-01T00:00:00Z');
const later = new Date('2026-01-02T00:00:00Z');

function aReview(): DefinitionReview {
  return DefinitionReview.open({
    id: 'r1',
    toolId: 't1',
    sourceId: 's1',
    sourceName: 'demo',
    toolName: 'echo',
    qualifiedName: 'demo__echo',
    definitionHash: 'h2',
    definition: { name: 'echo', inputSchema: { type: 'object' } },
    previousHash: 'h1',
    previousDefinition: { name: 'echo', inputSchema: {} },
    changes: ['input_schema_changed'],
    findings: [],
    createdAt: at,
  });
}

describe('DefinitionReview', () => {
  it('opens pending, and is decided once: approved or rejected, by whom, when and why', () => {
    const approved = aReview();
    expect(approved.state).toBe('pending');
    approved.approve('alice', 'fine', later);
    expect(approved.snapshot()).toMatchObject({ state: 'approved', decidedBy: 'alice', decidedAt: later, comment: 'fine' });
    const rejected = aReview();
    rejected.reject('bob', null, later);
    expect(rejected.snapshot()).toMatchObject({ state: 'rejected', decidedBy: 'bob', comment: null });
  });

  it('refuses a second decision, and one on a superseded review, with REVIEW_ALREADY_DECIDED', () => {
    for (const decided of [
      (r: DefinitionReview) => r.approve('a', null, later),
      (r: DefinitionReview) => r.reject('a', null, later),
      (r: DefinitionReview) => r.supersede(later),
    ]) {
      for (const next of [(r: DefinitionReview) => r.approve('b', null, later), (r: DefinitionReview) => r.reject('b', null, later)]) {
        const review = aReview();
        decided(review);
        const state = review.state;
        expect(() => next(review)).toThrow(Conflict);
        expect(() => next(review)).toThrow(expect.objectContaining({ code: 'REVIEW_ALREADY_DECIDED' }));
        expect(review.state).toBe(state);
      }
    }
  });

  it('is superseded only while pending', () => {
    const pending = aReview();
    pending.supersede(later);
    expect(pending.snapshot()).toMatchObject({ state: 'superseded', decidedAt: later, decidedBy: null });
    const approved = aReview();
    approved.approve('a', null, at);
    approved.supersede(later);
    expect(approved.snapshot()).toMatchObject({ state: 'approved', decidedAt: at });
  });
});
