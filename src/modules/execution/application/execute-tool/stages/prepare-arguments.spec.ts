import { ExecuteToolHarness } from '../../../testing/execute-tool-harness.js';
import { aRoute } from '../../../testing/routes.js';

describe('PrepareArgumentsStage', () => {
  const route = aRoute('fs__read', {
    tool: { inputSchema: { type: 'object', properties: { path: { type: 'string' }, head: { type: 'number' } }, required: ['path'] } },
  });
  const prepare = async (args: unknown, harness = new ExecuteToolHarness()) => {
    const call = harness.newCall({ qualifiedName: 'fs__read', arguments: args }, route);
    return { refusal: await harness.stages.prepareArguments.run(call), call, harness };
  };

  it('leaves out the nulls a strict-mode client sent for optional properties, and checks the rest against the schema', async () => {
    const { refusal, call, harness } = await prepare({ path: '/a', head: null });
    expect(refusal).toBeUndefined();
    expect(call.arguments).toEqual({ path: '/a' });
    expect(harness.validator.checked).toEqual([{ definitionHash: route.tool.definitionHash, args: { path: '/a' } }]);
  });

  it('checks large arguments a pass at a time, with other work between the passes, to the same verdict', async () => {
    const large = { path: '/a', head: null, lines: Array.from({ length: 5_000 }, (_, i) => ({ n: i })) };
    const turnsTaken = async (args: unknown) => {
      const harness = new ExecuteToolHarness();
      const call = harness.newCall({ qualifiedName: 'fs__read', arguments: args }, route);
      let turns = 0;
      let counting = true;
      const count = () => {
        if (!counting) return;
        turns += 1;
        setImmediate(count);
      };
      setImmediate(count);
      const refusal = await harness.stages.prepareArguments.run(call);
      counting = false;
      return { turns, refusal, prepared: call.arguments };
    };
    const small = await turnsTaken({ path: '/a', head: null });
    const big = await turnsTaken(large);
    expect(small.turns).toBe(0);
    expect(big.turns).toBeGreaterThanOrEqual(3);
    expect(big.refusal).toBeUndefined();
    expect(big.prepared).toEqual({ path: '/a', lines: large.lines });
  });

  it('takes no arguments as an empty object', async () => {
    const { refusal } = await prepare(undefined);
    expect(refusal?.error.details).toEqual([{ path: 'arguments.path', message: 'is required' }]);
  });

  it('refuses arguments that are not an object', async () => {
    for (const args of ['text', 7, [1]]) {
      const { refusal } = await prepare(args);
      expect([refusal?.status, refusal?.error]).toEqual([
        'invalid_arguments',
        { code: 'INVALID_ARGUMENTS', message: 'arguments must be a JSON object.', retryable: false, details: [{ path: 'arguments', message: 'must be an object' }] },
      ]);
    }
  });

  it('refuses arguments nesting deeper than 64 levels, before looking at their text', async () => {
    let deep: Record<string, unknown> = { path: 'a\u0000' };
    for (let i = 0; i < 64; i++) deep = { path: '/a', inner: deep };
    expect((await prepare(deep)).refusal?.error).toMatchObject({ code: 'INVALID_ARGUMENTS', message: 'arguments nest deeper than 64 levels.' });
    let fine: Record<string, unknown> = { path: '/a' };
    for (let i = 0; i < 62; i++) fine = { path: '/a', inner: fine };
    expect((await prepare(fine)).refusal).toBeUndefined();
  });

  it('refuses text that cannot be recorded, naming where it is, before the schema is checked', async () => {
    const { refusal, harness } = await prepare({ path: 'a\u0000b', ['k\ud800']: 1 });
    expect([refusal?.status, refusal?.error.code]).toEqual(['invalid_arguments', 'UNSTORABLE_ARGUMENTS']);
    expect(refusal?.error.details?.map((detail) => detail.path).sort()).toEqual(['arguments.k\\ud800', 'arguments.path']);
    expect(harness.validator.checked).toEqual([]);
  });

  it('refuses arguments that do not match the schema, listing every problem', async () => {
    const harness = new ExecuteToolHarness();
    harness.validator.answer = () => ({ problems: [{ path: 'arguments.path', message: 'must be string' }, { path: 'arguments.x', message: 'is not allowed by the schema' }] });
    const { refusal } = await prepare({ path: 1, x: 2 }, harness);
    expect(refusal?.error).toEqual({
      code: 'INVALID_ARGUMENTS',
      message: 'The arguments do not match the input schema of fs__read.',
      retryable: false,
      details: [
        { path: 'arguments.path', message: 'must be string' },
        { path: 'arguments.x', message: 'is not allowed by the schema' },
      ],
    });
  });

  it('refuses a tool whose schema cannot be checked, also while it is first compiled', async () => {
    const harness = new ExecuteToolHarness();
    harness.validator.compiling = true;
    harness.validator.answer = () => ({ unusable: 'its inputSchema could not be compiled: bad $ref' });
    const { refusal, call } = await prepare({ path: '/a' }, harness);
    expect([refusal?.status, refusal?.error.code, refusal?.error.message]).toEqual(['rejected', 'TOOL_UNUSABLE', 'fs__read cannot be called: its inputSchema could not be compiled: bad $ref.']);
    expect(call.arguments).toBeUndefined();
  });
});
