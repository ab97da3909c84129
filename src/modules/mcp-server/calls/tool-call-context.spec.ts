import { Server, type CallToolResult } from '@modelcontextprotocol/server';
import { projectCallToolResult } from './tool-call-context.js';

describe('projectCallToolResult', () => {
  const cases: [string, CallToolResult, Record<string, unknown> | undefined][] = [
    ['no structured content', { content: [{ type: 'text', text: 'hi' }] }, undefined],
    ['an object', { content: [], structuredContent: { a: 1 } }, { type: 'object' }],
    ['an array, no text', { content: [], structuredContent: [1, 2] as unknown as Record<string, unknown> }, undefined],
    ['a number with text', { content: [{ type: 'text', text: '3' }], structuredContent: 3 as unknown as Record<string, unknown> }, undefined],
    ['an object under an array schema', { content: [], structuredContent: { a: 1 } }, { type: 'array' }],
  ];

  // An SDK server not serving the 2026-07-28 era projects as the 2025 wire does: the oracle.
  const sdk = new Server({ name: 'oracle', version: '1' }, { capabilities: { tools: {} } });

  it.each(cases)('2025 era: as the SDK projects %s', (_case, result, schema) => {
    expect(projectCallToolResult('legacy', result, schema)).toEqual(sdk.projectCallToolResult(result, schema));
  });

  it('2026-07-28: values stay as they are; a non-object gets a text rendering when the content has none', () => {
    expect(projectCallToolResult('modern', cases[1]![1], { type: 'object' })).toEqual(cases[1]![1]);
    expect(projectCallToolResult('modern', cases[2]![1], undefined)).toEqual({ content: [{ type: 'text', text: '[1,2]' }], structuredContent: [1, 2] });
    expect(projectCallToolResult('modern', cases[3]![1], undefined)).toEqual(cases[3]![1]);
    expect(projectCallToolResult('modern', cases[4]![1], { type: 'array' })).toEqual(cases[4]![1]);
  });
});
