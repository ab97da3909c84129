import { logLevel } from '../../../../../shared/logging/log-level.js';
import { captureLogs } from '../../../testing/captured-log.js';
import { ExecuteToolHarness } from '../../../testing/execute-tool-harness.js';
import { aRoute } from '../../../testing/routes.js';

describe('ReportStage', () => {
  it('counts the call in the metrics and writes its line, never its arguments or result', async () => {
    const logs = captureLogs();
    try {
      const harness = new ExecuteToolHarness();
      const call = harness.newCall({ qualifiedName: 'everything__echo', arguments: { message: 'private' }, requestId: 'r-1' }, aRoute('everything__echo'));
      call.upstreamMs = 250;
      const record = await harness.stages.recordOutcome.run(call, { status: 'tool_error', isError: true, error: null, result: { content: [{ type: 'text', text: 'secret' }], truncated: false, originalBytes: 1 } });
      harness.stages.report.run(call, record);
      expect(harness.metrics.calls).toEqual([{ source: 'everything', tool: 'everything__echo', channel: 'rest', status: 'tool_error', seconds: record.durationMs / 1000, upstreamSeconds: 0.25 }]);
      expect(logs.lines).toEqual([
        {
          level: 'log',
          message: { requestId: 'r-1', msg: 'call ended', executionId: record.id, tool: 'everything__echo', source: 'everything', channel: 'rest', status: 'tool_error', durationMs: record.durationMs, principal: 'key-1' },
          context: 'calls',
        },
      ]);
    } finally {
      logs.restore();
    }
  });

  it('builds no line when info lines are not written', async () => {
    const logs = captureLogs();
    logLevel.install((level) => level !== 'info');
    try {
      const harness = new ExecuteToolHarness();
      const call = harness.newCall({ qualifiedName: 'nothing__here' });
      harness.stages.report.run(call, await harness.stages.recordOutcome.run(call, { status: 'rejected', isError: false, result: null, error: { code: 'TOOL_NOT_FOUND', message: 'x', retryable: false } }));
      expect(logs.lines).toEqual([]);
      expect(harness.metrics.calls).toEqual([expect.objectContaining({ source: null, tool: null, status: 'rejected', upstreamSeconds: null })]);
    } finally {
      logLevel.install(() => true);
      logs.restore();
    }
  });
});
