import { readConfigText, readConfigValue } from './config-document.js';

const source = (name: string) => ({ name, type: 'remote', url: 'https://example.com/mcp' });

describe('readConfigValue', () => {
  it('reads each list, and lists each problem of every list at once', async () => {
    const document = await readConfigValue({
      sources: [source('a'), source('a')],
      groups: 'all',
      interceptors: [{ name: 'x', kind: 'deny' }, 7, { name: 'x' }],
      keys: [{ name: ' k ', role: 'viewer', colour: 'red' }, { name: 'k', role: 'admin' }],
      extra: true,
    });
    expect(document.sources.map((s) => s.spec.name)).toEqual(['a', 'a']);
    expect(document.groups).toEqual([]);
    expect(document.interceptors).toEqual([
      { spec: { name: 'x', kind: 'deny' }, shapeProblems: [] },
      { spec: {}, shapeProblems: [{ path: 'body', message: "must be a mapping with the interceptor's name, kind and settings" }] },
      { spec: { name: 'x' }, shapeProblems: [] },
    ]);
    expect(document.keys?.[0]?.shapeProblems).toEqual([{ path: 'colour', message: expect.stringContaining('is not a key setting') }]);
    expect(document.problems).toEqual([
      { path: 'extra', message: 'is not a known key (known: sources, groups, interceptors, keys)' },
      { path: 'keys[1].name', message: '"k" is declared twice (first at keys[0])' },
      { path: 'groups', message: 'must be a list (an empty list declares no group: with prune, every group is removed)' },
      { path: 'interceptors[2].name', message: '"x" is declared twice (first at interceptors[0])' },
      { path: 'sources[1].name', message: '"a" is declared twice (first at sources[0])' },
    ]);
  });

  it('leaves a list the file does not name undefined, and requires the sources', async () => {
    const document = await readConfigValue({ groups: [] });
    expect(document).toEqual({ sources: [], groups: [], problems: [{ path: 'sources', message: 'is required' }] });
  });

  it('refuses a list that is too long without reading its entries, and a null one as no list', async () => {
    const document = await readConfigValue({ sources: null, keys: Array.from({ length: 1001 }, () => 'k') });
    expect(document.keys).toEqual([]);
    expect(document.problems).toEqual([
      { path: 'keys', message: 'declares 1001 keys; at most 1000 fit in one file' },
      { path: 'sources', message: 'must be a list (an empty list declares no source)' },
    ]);
  });

  it('gives a source its own shape problems and a key a mapping of its own', async () => {
    const document = await readConfigValue({ sources: [{ name: 'b' }], keys: ['not a mapping'] });
    expect(document.sources[0]!.shapeProblems.length).toBeGreaterThan(0);
    expect(document.keys).toEqual([{ spec: { name: undefined, role: undefined }, shapeProblems: [{ path: 'body', message: 'must be a mapping with name, role and the key' }] }]);
    expect(document.problems).toEqual([]);
  });

  it('reads YAML text, and refuses an empty or a non-mapping document', async () => {
    expect((await readConfigText('sources: []\n')).problems).toEqual([]);
    expect((await readConfigValue(null)).problems[0]!.message).toMatch(/^is empty/);
    expect((await readConfigValue([1])).problems).toEqual([{ path: 'body', message: 'must be a mapping with a `sources:` list' }]);
  });
});
