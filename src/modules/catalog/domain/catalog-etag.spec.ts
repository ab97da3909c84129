import { catalogEtag, ifNoneMatchHits } from './catalog-etag.js';

describe('catalog ETags', () => {
  const tag = catalogEtag({ q: 'echo', limit: 10 }, '3.abc');

  it('is a strong, quoted tag that depends on the request and on the catalog version', () => {
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(catalogEtag({ q: 'echo', limit: 10 }, '3.abc')).toBe(tag);
    expect(catalogEtag({ q: 'echo', limit: 11 }, '3.abc')).not.toBe(tag);
    expect(catalogEtag({ q: 'echo', limit: 10 }, '3.abd')).not.toBe(tag);
  });

  it.each([
    [undefined, false],
    [tag, true],
    [`W/${tag}`, true],
    [`"other", ${tag}`, true],
    ['*', true],
    ['"other"', false],
    [tag.slice(1, -1), false],
  ])('If-None-Match %s → %s', (header, hit) => {
    expect(ifNoneMatchHits(header, tag)).toBe(hit);
  });
});
