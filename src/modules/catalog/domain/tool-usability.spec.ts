import fc from 'fast-check';
import { isUsable, whyUnusable, type UsabilityFacts } from './tool-usability.js';

const usable: UsabilityFacts = {
  qualifiedName: 'ev__echo',
  status: 'active',
  enabled: true,
  unusableReason: null,
  reviewState: 'approved' as const,
  annotations: null,
  source: { name: 'ev', enabled: true, readOnly: false },
};

describe('whyUnusable', () => {
  it('offers an active, enabled tool of an enabled source', () => {
    expect(whyUnusable(usable)).toBeUndefined();
    expect(isUsable(usable)).toBe(true);
  });

  it('names the first reason in a fixed order', () => {
    const everything: UsabilityFacts = { ...usable, status: 'deprecated', enabled: false, unusableReason: 'schema too deep', source: { name: 'ev', enabled: false, readOnly: true } };
    expect(whyUnusable(everything)?.code).toBe('TOOL_DEPRECATED');
    expect(whyUnusable({ ...everything, status: 'active', reviewState: 'pending_review' })?.code).toBe('TOOL_PENDING_REVIEW');
    expect(whyUnusable({ ...everything, status: 'active', reviewState: 'rejected' })?.code).toBe('TOOL_REJECTED');
    expect(whyUnusable({ ...everything, status: 'active' })?.code).toBe('SOURCE_DISABLED');
    expect(whyUnusable({ ...everything, status: 'active', source: { ...everything.source, enabled: true } })?.code).toBe('TOOL_DISABLED');
    expect(whyUnusable({ ...usable, unusableReason: 'schema too deep' })).toEqual({ code: 'TOOL_UNUSABLE', message: 'ev__echo cannot be called: schema too deep.' });
    expect(whyUnusable({ ...usable, source: { ...usable.source, readOnly: true } })?.code).toBe('READ_ONLY_SOURCE');
  });

  it('holds a tool whose definition is not approved, whatever else holds', () => {
    expect(whyUnusable({ ...usable, reviewState: 'pending_review' })).toEqual({ code: 'TOOL_PENDING_REVIEW', message: 'ev__echo has a new or changed definition waiting for review.' });
    expect(isUsable({ ...usable, reviewState: 'rejected' })).toBe(false);
  });

  it('admits only tools annotated readOnlyHint: true (the boolean) on a read-only source', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.string(), fc.integer()), (hint) => {
        const tool = { ...usable, annotations: hint === undefined ? {} : { readOnlyHint: hint }, source: { ...usable.source, readOnly: true } };
        expect(isUsable(tool)).toBe(hint === true);
      }),
    );
  });
});
