import { ExecuteToolHarness } from '../../../testing/execute-tool-harness.js';
import { aRoute } from '../../../testing/routes.js';

describe('IntakeStage', () => {
  const route = aRoute('everything__echo');
  const problems = [{ path: 'timeoutMs', message: 'must not be less than 1' }];

  it('takes a well-formed call to a known tool while Toolplane runs', () => {
    const harness = new ExecuteToolHarness();
    expect(harness.stages.intake.run(harness.newCall({ qualifiedName: 'everything__echo' }, route))).toBeUndefined();
  });

  it('refuses a malformed request first, listing its problems', () => {
    const harness = new ExecuteToolHarness();
    harness.inFlight.draining = true;
    expect(harness.stages.intake.run(harness.newCall({ qualifiedName: 'nothing__here', shapeProblems: problems }))).toEqual({
      status: 'invalid_arguments',
      isError: false,
      result: null,
      error: { code: 'VALIDATION_FAILED', message: 'The invocation request is invalid.', retryable: false, details: problems },
    });
  });

  it('then a call while Toolplane shuts down, then an unknown tool', () => {
    const harness = new ExecuteToolHarness();
    harness.inFlight.draining = true;
    const unknown = harness.newCall({ qualifiedName: `x${'y'.repeat(300)}` });
    expect(harness.stages.intake.run(unknown)?.error).toEqual({ code: 'SHUTTING_DOWN', message: 'Toolplane is shutting down.', retryable: true });
    harness.inFlight.draining = false;
    const refusal = harness.stages.intake.run(unknown);
    expect([refusal?.status, refusal?.error.code, refusal?.error.retryable]).toEqual(['rejected', 'TOOL_NOT_FOUND', false]);
    expect(refusal?.error.message).toBe(`No tool named "x${'y'.repeat(99)}".`);
  });

  it('refuses a call through an unknown group (GROUP_NOT_FOUND), and one naming no tool of its group (TOOL_NOT_FOUND, naming the group)', async () => {
    const harness = new ExecuteToolHarness();
    const unknownGroup = harness.newCall({ group: 'nope', qualifiedName: 'say' });
    expect(harness.stages.intake.run(unknownGroup)?.error).toEqual({ code: 'GROUP_NOT_FOUND', message: 'No group named "nope".', retryable: false });
    const inGroup = harness.newCall({ group: 'bot', qualifiedName: 'say' });
    inGroup.groupView = {} as NonNullable<typeof inGroup.groupView>;
    expect(harness.stages.intake.run(inGroup)?.error).toEqual({ code: 'TOOL_NOT_FOUND', message: 'No tool named "say" in group "bot".', retryable: false });
  });
});
