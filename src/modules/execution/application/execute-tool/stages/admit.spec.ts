import { whyUnusable } from '../../../../catalog/domain/tool-usability.js';
import { ExecuteToolHarness } from '../../../testing/execute-tool-harness.js';
import { aRoute } from '../../../testing/routes.js';
import type { ToolRoute } from '../../tool-route.js';

describe('AdmitStage', () => {
  const admit = (harness: ExecuteToolHarness, route: ToolRoute, input: Parameters<ExecuteToolHarness['newCall']>[0] = { qualifiedName: route.tool.qualifiedName }) =>
    harness.stages.admit.run(harness.newCall(input, route));

  it('admits a usable tool the caller may call, within its budgets', async () => {
    const harness = new ExecuteToolHarness();
    expect(await admit(harness, aRoute('everything__echo'), { qualifiedName: 'everything__echo', scope: { sources: ['every*'] }, rateLimitPerMinute: 5 })).toBeUndefined();
    expect(harness.buckets.taken).toEqual(['principal:key-1']);
  });

  it("refuses a tool outside the caller's scope, naming the rule, before anything else", async () => {
    const harness = new ExecuteToolHarness();
    const route = aRoute('everything__echo', { tool: { enabled: false } });
    const refusal = await admit(harness, route, { qualifiedName: 'everything__echo', scope: { tools: ['memory__*'] }, rateLimitPerMinute: 0.5 });
    expect(refusal?.error).toEqual({
      code: 'TOOL_NOT_ALLOWED',
      message: 'This key may not call everything__echo.',
      retryable: false,
      details: [{ path: 'qualifiedName', message: 'allowedTools: "everything__echo" matches none of ["memory__*"]' }],
    });
    expect(harness.buckets.taken).toEqual([]);
  });

  it('lets a caller bound to groups call only through them', async () => {
    const harness = new ExecuteToolHarness();
    const route = aRoute('everything__echo');
    const scope = { groups: ['support'] };
    expect(await admit(harness, route, { qualifiedName: 'everything__echo', scope, group: 'support' })).toBeUndefined();
    const outside = await admit(harness, route, { qualifiedName: 'everything__echo', scope });
    expect(outside?.error.details).toEqual([{ path: 'qualifiedName', message: 'allowedGroups: only through the groups ["support"], not outside a group' }]);
    const other = await admit(harness, route, { qualifiedName: 'everything__echo', scope, group: 'billing' });
    expect(other?.error.details).toEqual([{ path: 'qualifiedName', message: 'allowedGroups: group "billing" matches none of ["support"]' }]);
  });

  it('refuses by the rule the channel already refused the source with', async () => {
    const harness = new ExecuteToolHarness();
    const refusal = await admit(harness, aRoute('everything__echo'), { qualifiedName: 'everything__echo', sourceRefusal: 'allowedSources: "everything" matches none of ["memory"]' });
    expect(refusal?.error.details).toEqual([{ path: 'qualifiedName', message: 'allowedSources: "everything" matches none of ["memory"]' }]);
  });

  it("refuses a call over the caller's budget, then over the tool's, saying which and when to try again", async () => {
    const harness = new ExecuteToolHarness();
    const route = aRoute('everything__echo', { source: { rateLimitPerMinute: 1 } });
    harness.buckets.taken.push('principal:key-1');
    expect((await admit(harness, route, { qualifiedName: 'everything__echo', rateLimitPerMinute: 1 }))?.error).toEqual({
      code: 'RATE_LIMITED',
      message: 'This caller is over its rate limit of 1 calls a minute.',
      retryable: true,
      details: [{ path: 'principal', message: 'at most 1 calls a minute' }],
      retryAfterMs: 6000,
      rateLimit: { scope: 'principal', limitPerMinute: 1 },
    });
    expect(await admit(harness, route)).toBeUndefined();
    expect((await admit(harness, route))?.error).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'everything__echo is over its rate limit of 1 calls a minute.',
      details: [{ path: 'source.rateLimitPerMinute', message: 'at most 1 calls a minute' }],
      rateLimit: { scope: 'tool', limitPerMinute: 1 },
    });
  });

  it('takes no second token for a held call run again after its decision, and still refuses it a tool disabled meanwhile', async () => {
    const harness = new ExecuteToolHarness();
    const approval = { id: 'a-1', interceptor: 'approve-all', decision: 'approved' as const, argumentsHash: 'h', requestedAt: '2026-01-01T00:00:00.000Z', decidedAt: '2026-01-01T00:01:00.000Z' };
    const route = aRoute('everything__echo', { source: { rateLimitPerMinute: 1 } });
    harness.buckets.taken.push('principal:key-1', 'tool:everything__echo');
    expect(await admit(harness, route, { qualifiedName: 'everything__echo', rateLimitPerMinute: 1, approval })).toBeUndefined();
    expect(harness.buckets.taken).toEqual(['principal:key-1', 'tool:everything__echo']);
    const disabled = aRoute('everything__echo', { tool: { enabled: false } });
    expect((await admit(harness, disabled, { qualifiedName: 'everything__echo', approval }))?.error.code).toBe('TOOL_DISABLED');
    expect((await admit(harness, route, { qualifiedName: 'everything__echo', scope: { tools: ['memory__*'] }, approval }))?.error.code).toBe('TOOL_NOT_ALLOWED');
  });

  it('refuses a tool that cannot be used, by the catalog’s one rule, with its codes and messages', async () => {
    const harness = new ExecuteToolHarness();
    const cases: [ToolRoute, string, string][] = [
      [aRoute('everything__echo', { tool: { status: 'deprecated', enabled: false } }), 'TOOL_DEPRECATED', 'everything__echo is no longer offered by its source.'],
      [aRoute('everything__echo', { source: { enabled: false }, tool: { reviewState: 'pending_review' } }), 'TOOL_PENDING_REVIEW', 'everything__echo has a new or changed definition waiting for review.'],
      [aRoute('everything__echo', { tool: { reviewState: 'rejected', enabled: false } }), 'TOOL_REJECTED', "everything__echo's current definition was rejected by a reviewer."],
      [aRoute('everything__echo', { source: { enabled: false }, tool: { enabled: false } }), 'SOURCE_DISABLED', 'Source "everything" is disabled.'],
      [aRoute('everything__echo', { tool: { enabled: false, unusableReason: 'x' } }), 'TOOL_DISABLED', 'everything__echo is disabled.'],
      [aRoute('everything__echo', { tool: { unusableReason: 'its inputSchema nests too deep' } }), 'TOOL_UNUSABLE', 'everything__echo cannot be called: its inputSchema nests too deep.'],
      [aRoute('everything__echo', { source: { readOnly: true }, tool: { annotations: { readOnlyHint: false } } }), 'READ_ONLY_SOURCE', 'Source "everything" is read-only and everything__echo is not annotated readOnlyHint.'],
    ];
    for (const [route, code, message] of cases) {
      const refusal = await admit(harness, route);
      expect([refusal?.status, refusal?.error]).toEqual(['rejected', { code, message, retryable: false }]);
      expect(whyUnusable({ ...route.tool, source: route.source })).toEqual({ code, message });
    }
    expect(await admit(harness, aRoute('everything__echo', { source: { readOnly: true }, tool: { annotations: { readOnlyHint: true } } }))).toBeUndefined();
  });
});
