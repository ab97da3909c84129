import fc from 'fast-check';
import { catalogTool } from '../../../../test/helpers/catalog-tools.js';
import type { CatalogTool } from './catalog.js';
import { MAX_SEARCH_TERMS, parseSearch, searchTools, stem, ToolSearchIndex } from './tool-search.js';

const tool = (qualifiedName: string, description: string, extra: Partial<CatalogTool> = {}) => catalogTool(qualifiedName, { description, ...extra });
const names = (tools: readonly CatalogTool[], query: string, limit = 50) => searchTools(tools, query, limit).map((hit) => hit.tool.qualifiedName);

describe('parseSearch', () => {
  it('splits a search into groups of parts, each part matching as a prefix', () => {
    expect(parseSearch('get-su')).toEqual({ text: 'get-su', groups: [['get', 'su']] });
    expect(parseSearch('  Create_Entities  now ')).toEqual({ text: 'Create_Entities now', groups: [['create', 'entities']] });
    // Function words are dropped, unless the search holds nothing else.
    expect(parseSearch('send an email to the team')!.groups).toEqual([['send'], ['email'], ['team']]);
    expect(parseSearch('the')!.groups).toEqual([['the']]);
    expect(parseSearch('add two numbers')!.groups).toEqual([['add'], ['two'], ['numbers']]);
  });

  it('keeps letters of every script and drops any syntax', () => {
    expect(parseSearch("名前 & !x:* 'y'")!.groups).toEqual([['名前'], ['x'], ['y']]);
  });

  it('treats a blank search as no search, and keeps a search without words for name matching', () => {
    expect(parseSearch('   ')).toBeUndefined();
    expect(parseSearch(undefined)).toBeUndefined();
    expect(parseSearch('--')).toEqual({ text: '--', groups: [] });
  });

  it('bounds the number of parts', () => {
    const q = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    expect(parseSearch(q)!.groups.flat()).toHaveLength(MAX_SEARCH_TERMS);
    expect(parseSearch(`${q.replaceAll(' ', '-')} x`)!.groups.flat()).toHaveLength(MAX_SEARCH_TERMS);
  });
});

describe('stem', () => {
  it.each([
    ['customers', 'customer'],
    ['echoes', 'echo'],
    ['echo', 'echo'],
    ['entities', 'entity'],
    ['boxes', 'box'],
    ['created', 'creat'],
    ['create', 'creat'],
    ['listing', 'list'],
    ['status', 'status'],
    ['add', 'add'],
  ])('%s → %s', (word, stemmed) => {
    expect(stem(word)).toBe(stemmed);
  });
});

describe('the catalog search', () => {
  const tools = [
    tool('ev__echo', 'Echoes back the input string', { title: 'Echo Tool', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } }),
    tool('ev__get-annotated-message', 'Demonstrates how annotations can be used to provide metadata about content.', { title: 'Get Annotated Message Tool' }),
    tool('ev__get-sum', 'Returns the sum of two numbers', { title: 'Get Sum Tool', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } }),
    tool('ev__get-structured-content', 'Returns structured content along with an output schema for client data validation', { title: 'Get Structured Content Tool' }),
    tool('fs__read_file', 'Read the complete contents of a file from the file system.'),
    tool('fs__write_file', 'Create a new file or overwrite an existing file.'),
    tool('gh__create_issue', 'Create a new issue in a GitHub repository'),
    tool('inv__nested', 'Places an order for a customer', { title: 'Place an order' }),
  ].sort((a, b) => (a.qualifiedName < b.qualifiedName ? -1 : 1));

  it('ranks a tool named by the query first, ignoring function words', () => {
    expect(names(tools, 'echo a message')[0]).toBe('ev__echo');
    expect(names(tools, 'read a file')[0]).toBe('fs__read_file');
    expect(names(tools, 'echo')[0]).toBe('ev__echo');
  });

  it('finds a tool by any of the words of a request, those matching more ranking first', () => {
    expect(names(tools, 'add numbers')[0]).toBe('ev__get-sum');
    expect(names(tools, 'add two numbers')[0]).toBe('ev__get-sum');
    expect(names(tools, 'github issue')).toEqual(['gh__create_issue']);
    expect(names(tools, 'kubernetes')).toEqual([]);
    const hits = names(tools, 'create file');
    expect(hits[0]).toBe('fs__write_file');
    expect(hits).toContain('gh__create_issue');
  });

  it('needs every part of a word made of parts, or the word within a name', () => {
    expect(names(tools, 'get-su')[0]).toBe('ev__get-sum');
    expect(names(tools, 'tructured-cont')).toEqual(['ev__get-structured-content']);
    expect(names(tools, 'inv__nest')).toEqual(['inv__nested']);
    expect(names(tools, 'no-such-words-anywhere')).toEqual([]);
  });

  it('matches stems: plurals and verb endings', () => {
    expect(names(tools, 'customers')).toEqual(['inv__nested']);
    expect(names(tools, 'order')).toEqual(['inv__nested']);
    expect(names(tools, 'creating')).toEqual(['gh__create_issue', 'fs__write_file']); // a name match first
  });

  it('breaks ties by name, honours the limit and lists the first tools for an empty query', () => {
    expect(names(tools, 'file')).toEqual(['fs__read_file', 'fs__write_file']);
    expect(searchTools(tools, 'file', 1)).toHaveLength(1);
    expect(names(tools, '  ', 2)).toEqual(['ev__echo', 'ev__get-annotated-message']);
  });

  const word = fc.constantFrom('echo', 'get', 'sum', 'file', 'read', 'create', 'issue', 'numbers', 'content', 'the', 'a', 'x', 'git', 'ord', '名前');
  const query = fc.array(fc.array(word, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('-')), { minLength: 1, maxLength: 4 }).map((words) => words.join(' '));

  it('ranks any search as a scan of every tool would: found tools best first, by name on ties, and only those', () => {
    const index = new ToolSearchIndex(tools);
    fc.assert(
      fc.property(query, (q) => {
        const search = parseSearch(q)!;
        const hits = index.search(search);
        for (let i = 1; i < hits.length; i++) {
          const [a, b] = [hits[i - 1]!, hits[i]!];
          expect(a.score > b.score || (a.score === b.score && a.tool.qualifiedName < b.tool.qualifiedName)).toBe(true);
        }
        // A tool is found when one of the groups has every part as a prefix of (or sharing the stem with) one of its words, or its name holds the search.
        const wordsOf = (t: CatalogTool) =>
          `${t.qualifiedName} ${t.name} ${t.title ?? ''} ${t.description ?? ''} ${Object.keys((t.inputSchema.properties as object | undefined) ?? {}).join(' ')}`.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
        const matches = (part: string, w: string) => w.startsWith(part) || stem(w).startsWith(stem(part));
        const found = tools
          .filter(
            (t) =>
              search.groups.some((group) => group.every((part) => wordsOf(t).some((w) => matches(part, w)))) ||
              (!q.includes(' ') && [t.name, t.qualifiedName].some((n) => n.toLowerCase().includes(q.toLowerCase()))),
          )
          .map((t) => t.qualifiedName);
        expect(hits.map((hit) => hit.tool.qualifiedName).sort()).toEqual(found.sort());
      }),
      { numRuns: 300 },
    );
  });
});
