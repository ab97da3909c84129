import type { ToolView } from '../inventory/application/tool-view.js';
import { searchTools } from './tool-search.js';
import { declaredTool } from '../inventory/domain/tool-definition.js';

function tool(qualifiedName: string, description: string, extra: Partial<ToolView> = {}): ToolView {
  const [source, name] = qualifiedName.split('__') as [string, string];
  const v = {
    id: qualifiedName,
    qualifiedName,
    name,
    source: { id: source, name: source, enabled: true, readOnly: false },
    title: null,
    description,
    inputSchema: { type: 'object' },
    outputSchema: null,
    annotations: null,
    unusableReason: null,
    definitionHash: 'h',
    declaredHash: 'h',
    status: 'active',
    enabled: true,
    firstSeenAt: '',
    lastSeenAt: '',
    updatedAt: '',
    ...extra,
  } as Omit<ToolView, 'definition'>;
  return { ...v, definition: declaredTool({ name: v.name, title: v.title ?? undefined, description: v.description ?? undefined, inputSchema: v.inputSchema, outputSchema: v.outputSchema ?? undefined, annotations: v.annotations ?? undefined }) };
}

describe('searchTools', () => {
  const tools = [
    tool('ev__echo', 'Echoes back the input string', { title: 'Echo Tool', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } }),
    tool('ev__get-annotated-message', 'Demonstrates how annotations can be used to provide metadata about content.', { title: 'Get Annotated Message Tool' }),
    tool('fs__read_file', 'Read the complete contents of a file from the file system.'),
    tool('fs__write_file', 'Create a new file or overwrite an existing file.'),
    tool('gh__create_issue', 'Create a new issue in a GitHub repository'),
  ];

  it('ranks a tool named by the query first, ignoring stop words', () => {
    expect(searchTools(tools, 'echo a message', 5)[0]!.tool.qualifiedName).toBe('ev__echo');
    expect(searchTools(tools, 'read a file', 5)[0]!.tool.qualifiedName).toBe('fs__read_file');
  });

  it('finds tools by their description and leaves out those matching nothing', () => {
    const hits = searchTools(tools, 'github issue', 5).map((h) => h.tool.qualifiedName);
    expect(hits).toEqual(['gh__create_issue']);
    expect(searchTools(tools, 'kubernetes', 5)).toEqual([]);
  });

  it('prefers tools matching every term, then breaks ties by name', () => {
    const hits = searchTools(tools, 'create file', 5).map((h) => h.tool.qualifiedName);
    expect(hits[0]).toBe('fs__write_file');
    expect(hits).toContain('gh__create_issue');
    expect(searchTools(tools, 'file', 5).map((h) => h.tool.qualifiedName)).toEqual(['fs__read_file', 'fs__write_file']);
  });

  it('honours the limit and lists the first tools for an empty query', () => {
    expect(searchTools(tools, 'file', 1)).toHaveLength(1);
    expect(searchTools(tools, '  ', 2).map((h) => h.tool.qualifiedName)).toEqual(['ev__echo', 'ev__get-annotated-message']);
  });
});
