import { MAX_SEARCH_TERMS, parseSearchText } from './search-text.js';

describe('parseSearchText', () => {
  it('splits names into words that each match as a prefix', () => {
    expect(parseSearchText('get-su')).toEqual({ text: 'get-su', terms: ['get', 'su'] });
    expect(parseSearchText('  Create_Entities  now ')).toEqual({ text: 'Create_Entities now', terms: ['create', 'entities'] });
    // Function words are dropped, unless the search holds nothing else.
    expect(parseSearchText('send an email to the team')!.terms).toEqual(['send', 'email', 'team']);
    expect(parseSearchText('the')!.terms).toEqual(['the']);
  });

  it('keeps letters of every script and drops tsquery syntax', () => {
    expect(parseSearchText("名前 & !x:* 'y'")!.terms).toEqual(['名前', 'x', 'y']);
  });

  it('treats a blank search as no search, and keeps a search without words for name matching', () => {
    expect(parseSearchText('   ')).toBeUndefined();
    expect(parseSearchText(undefined)).toBeUndefined();
    expect(parseSearchText('--')).toEqual({ text: '--', terms: [] });
  });

  it('bounds the number of words', () => {
    const q = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    expect(parseSearchText(q)!.terms).toHaveLength(MAX_SEARCH_TERMS);
  });
});
