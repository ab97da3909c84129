import { aToolView } from '../../inventory/testing/builders.js';
import { DEFAULT_FILTER } from './catalog.js';
import { GroupView } from './group-view.js';

describe('GroupView', () => {
  const tools = [aToolView('ev__echo'), aToolView('ev__get-sum'), aToolView('mem__read_graph')];
  const support = new GroupView({ name: 'support', description: '', select: [{ sources: ['ev'] }], include: [], exclude: [], overrides: { ev__echo: { name: 'say' } } }, tools, new Set(tools));

  it('shows a principal bound to groups the tools of its own groups, and nothing of another', () => {
    expect(support.mcpTools({ groups: ['support'] }).map((t) => t.name)).toEqual(['get-sum', 'say']);
    expect(support.mcpTools({ groups: ['sup*'], tools: ['ev__get-*'] }).map((t) => t.name)).toEqual(['get-sum']);
    expect(support.mcpTools({ groups: ['billing'] })).toEqual([]);
    expect(support.list({ ...DEFAULT_FILTER, scope: { groups: ['billing'] } }, undefined, 10)).toEqual([]);
    expect(support.list({ ...DEFAULT_FILTER, scope: { groups: ['support'] } }, undefined, 10).map((t) => t.servedName)).toEqual(['say', 'get-sum']);
    expect(support.version({ ...DEFAULT_FILTER, scope: { groups: ['billing'] } })).toMatch(/^0\./);
  });
});
