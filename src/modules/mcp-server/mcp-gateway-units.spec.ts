import type { Tool } from '@modelcontextprotocol/server';
import type { ExecutionRecord } from '../executions/domain/execution.js';
import { EXECUTION_META_KEY, toCallToolResult } from './calls/call-result.js';
import { McpCallRegistry } from './calls/mcp-call-registry.js';
import { CallerDeparture } from '../../shared/caller-signal.js';
import { paginate } from './mcp-tool-servers.js';

function record(overrides: Partial<ExecutionRecord>): ExecutionRecord {
  return {
    id: 'exec-1',
    toolId: 't',
    qualifiedName: 'ev__echo',
    sourceId: 's',
    sourceName: 'ev',
    definitionHash: 'h',
    caller: { principalId: 'admin', principalName: 'admin' },
    channel: 'mcp',
    arguments: {},
    status: 'succeeded',
    isError: false,
    result: { content: [{ type: 'text', text: 'hi' }], truncated: false, originalBytes: 10 },
    error: null,
    attempts: 1,
    startedAt: new Date(),
    durationMs: 1,
    ...overrides,
  };
}

describe('toCallToolResult', () => {
  it('answers what the tool answered: its own _meta, and the execution only when asked for', () => {
    const answered = record({ result: { content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 }, truncated: false, originalBytes: 10 } });
    expect(toCallToolResult(answered, 'ev__echo')).toEqual({ content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 } });
    const result = toCallToolResult(answered, 'ev__echo', { executionMeta: true });
    expect(result).toEqual({ content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 }, _meta: { [EXECUTION_META_KEY]: { id: 'exec-1', status: 'succeeded' } } });
    const withMeta = record({ result: { content: [], meta: { 'example.com/trace': 'x' }, truncated: false, originalBytes: 2 } });
    expect(toCallToolResult(withMeta, 'ev__echo')).toEqual({ content: [], _meta: { 'example.com/trace': 'x' } });
    expect(toCallToolResult(withMeta, 'ev__echo', { executionMeta: true })).toEqual({
      content: [],
      _meta: { 'example.com/trace': 'x', [EXECUTION_META_KEY]: { id: 'exec-1', status: 'succeeded' } },
    });
    expect(toCallToolResult(record({ status: 'tool_error', isError: true }), 'ev__echo')).toMatchObject({ isError: true, content: [{ type: 'text', text: 'hi' }] });
  });

  it('turns refusals into error results with the reason', () => {
    const result = toCallToolResult(
      record({ status: 'circuit_open', result: null, error: { code: 'CIRCUIT_OPEN', message: 'Source "ev" is failing; calls are paused.', retryable: true, retryAfterMs: 2500 } }),
      'ev__echo',
      { executionMeta: true },
    );
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: '[CIRCUIT_OPEN] Source "ev" is failing; calls are paused. Retry after 3 s.' }] });
    expect(result._meta![EXECUTION_META_KEY]).toEqual({ id: 'exec-1', status: 'circuit_open', code: 'CIRCUIT_OPEN', retryable: true, retryAfterMs: 2500 });
    const invalid = toCallToolResult(record({ status: 'invalid_arguments', result: null, error: { code: 'INVALID_ARGUMENTS', message: 'bad', retryable: false, details: [{ path: 'message', message: 'must be string' }] } }), 'x');
    expect((invalid as any).content[0].text).toBe('[INVALID_ARGUMENTS] bad\n- message: must be string');
  });

  it('answers an unknown tool with -32602, or with an error result where the caller names tools itself', () => {
    const unknown = record({ status: 'rejected', result: null, error: { code: 'TOOL_NOT_FOUND', message: 'No tool named "x".', retryable: false } });
    expect(() => toCallToolResult(unknown, 'x')).toThrow(expect.objectContaining({ code: -32602 }));
    expect(toCallToolResult(unknown, 'x', { unknownToolText: 'use search_tools' })).toMatchObject({ isError: true, content: [{ type: 'text', text: 'use search_tools' }] });
  });

  it("relays the upstream's invalid-params error, and keeps other upstream protocol errors as error results", () => {
    const upstream = (rpcCode: number) =>
      record({
        status: 'upstream_error',
        result: null,
        error: {
          code: 'UPSTREAM_PROTOCOL_ERROR',
          message: 'The upstream refused the call: Invalid or expired requestState',
          retryable: false,
          details: [{ path: 'rpcCode', message: String(rpcCode) }],
          upstream: { code: rpcCode, ...(rpcCode === -32021 ? { data: { requiredCapabilities: { sampling: {} } } } : {}) },
        },
      });
    expect(() => toCallToolResult(upstream(-32602), 'x')).toThrow(expect.objectContaining({ code: -32602, message: expect.stringContaining('Invalid or expired requestState') }));
    expect(toCallToolResult(upstream(-32603), 'x')).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('[UPSTREAM_PROTOCOL_ERROR]') }] });
    // The missing-capability error comes with its data: the upstream was told the caller's own capabilities.
    expect(() => toCallToolResult(upstream(-32021), 'x')).toThrow(expect.objectContaining({ code: -32021, data: { requiredCapabilities: { sampling: {} } } }));
  });

  it('passes input_required through untouched (the SDK fulfils it on 2025-era sessions)', () => {
    const asking = record({ status: 'input_required', result: { content: [], truncated: false, originalBytes: 0, inputRequests: { ok: { method: 'elicitation/create', params: {} } }, requestState: 'opaque \u2028 "state"' } });
    expect(toCallToolResult(asking, 'x')).toMatchObject({ resultType: 'input_required', inputRequests: { ok: { method: 'elicitation/create' } }, requestState: 'opaque \u2028 "state"' });
  });
});

describe('paginate', () => {
  const tools: Tool[] = Array.from({ length: 5 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }));

  it('pages by name with an opaque cursor', () => {
    const first = paginate(tools, undefined, 2);
    expect(first.tools.map((t) => t.name)).toEqual(['t0', 't1']);
    const second = paginate(tools, first.nextCursor, 2);
    expect(second.tools.map((t) => t.name)).toEqual(['t2', 't3']);
    const last = paginate(tools, second.nextCursor, 2);
    expect(last).toEqual({ tools: [tools[4]] });
  });

  it('pages a list in the upstream order by the tool last served, or by place once that tool is gone', () => {
    const listed: Tool[] = ['zeta', 'alpha', 'mid', 'beta', 'omega'].map((name) => ({ name, inputSchema: { type: 'object' } }));
    const first = paginate(listed, undefined, 2, 'as-listed');
    expect(first.tools.map((t) => t.name)).toEqual(['zeta', 'alpha']);
    const second = paginate(listed, first.nextCursor, 2, 'as-listed');
    expect(second.tools.map((t) => t.name)).toEqual(['mid', 'beta']);
    expect(paginate(listed, second.nextCursor, 2, 'as-listed')).toEqual({ tools: [listed[4]] });
    // alpha removed since the first page: the next page starts where the cursor left off.
    expect(paginate(listed.filter((t) => t.name !== 'alpha'), first.nextCursor, 2, 'as-listed').tools.map((t) => t.name)).toEqual(['mid', 'beta']);
    expect(() => paginate(listed, Buffer.from('{"after":"x","next":-1}').toString('base64url'), 2, 'as-listed')).toThrow(expect.objectContaining({ code: -32602 }));
  });

  it('refuses a cursor it did not issue with -32602', () => {
    expect(() => paginate(tools, 'not a cursor', 2)).toThrow(expect.objectContaining({ code: -32602 }));
    expect(() => paginate(tools, Buffer.from('{"x":1}').toString('base64url'), 2)).toThrow(expect.objectContaining({ code: -32602 }));
  });
});

describe('McpCallRegistry', () => {
  it('aborts the one call a cancellation names, and none when the id is ambiguous', () => {
    const registry = new McpCallRegistry();
    const a = registry.track('admin', 1);
    const b = registry.track('admin', '1');
    expect(registry.cancel('other', 1)).toBe(false);
    expect(registry.cancel('admin', 1, 'bored')).toBe(true);
    expect(a.signal.aborted).toBe(true);
    expect(b.signal.aborted).toBe(false);
    const c = registry.track('admin', '1');
    expect(registry.cancel('admin', '1')).toBe(false);
    a.done();
    b.done();
    c.done();
    expect(registry.size).toBe(0);
  });

  it('tracks tool calls on a CallerSignal: aborted by a cancellation or by the request closing, alike with the AbortSignal ones', () => {
    const registry = new McpCallRegistry();
    const request = new CallerDeparture();
    const call = registry.trackCall('admin', 7, request);
    const other = registry.track('admin', 8);
    expect(registry.size).toBe(2);
    expect(registry.cancel('admin', 7, 'changed my mind')).toBe(true);
    expect(call.signal.aborted).toBe(true);
    expect(String(call.signal.reason)).toContain('cancelled by the caller: changed my mind');
    expect(other.signal.aborted).toBe(false);
    call.done();
    other.done();

    request.abort();
    const closing = registry.trackCall('admin', 9, request);
    // The request had already closed: the call starts aborted.
    expect(closing.signal.aborted).toBe(true);
    closing.done();
    const open = new CallerDeparture();
    const later = registry.trackCall('admin', 10, open);
    open.abort();
    expect(later.signal.aborted).toBe(true);
    expect(later.signal.reason).toBe(open.reason);
    later.done();
    expect(registry.size).toBe(0);
  });
});
