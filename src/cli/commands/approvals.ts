import type { Command } from 'commander';
import type { ApprovalDetail } from '../../api-types/rest-api.js';
import type { QueryFor } from '../api-client.js';
import { colorState } from '../colors.js';
import { inContext } from '../context.js';
import { withPageOptions } from '../input.js';
import { shortTime, type Output } from '../output.js';
import { jsonText } from '../terminal-text.js';

export function registerApprovalCommands(program: Command): void {
  const approvals = program.command('approvals').description('Tool calls held for a person’s approval: list, show, approve or deny');

  withPageOptions(
    approvals
      .command('ls')
      .description('List held calls you may decide, newest first (by default the pending ones; an admin sees every one)')
      .option('--status <status>', 'pending (the default), approved, denied, expired or withdrawn')
      .option('-a, --all', 'every status'),
    'approvals per page (1-200)',
  ).action(inContext(async ({ api, out }, options: QueryFor<'/api/v1/approvals', 'get'> & { all?: boolean }) => {
    const page = await api.getJson('/api/v1/approvals', { query: { status: options.all ? undefined : (options.status ?? 'pending'), limit: options.limit, cursor: options.cursor } });
    out.page(
      page,
      [
        { header: 'ID', value: (a) => a.id },
        { header: 'TOOL', value: (a) => a.tool.qualifiedName },
        { header: 'CALLER', value: (a) => a.caller.principalName },
        { header: 'STATUS', value: (a) => a.status, style: (text) => colorState(out.c, text) },
        { header: 'HELD', value: (a) => shortTime(a.createdAt) },
        { header: 'EXPIRES', value: (a) => shortTime(a.expiresAt) },
      ],
      'no approvals',
    );
  }));

  approvals
    .command('get')
    .description('Show one held call: the tool, its arguments (redacted), the caller and its latest calls')
    .argument('<id>', 'approval id')
    .action(inContext(async ({ api, out }, id: string) => {
      out.result(await api.getJson('/api/v1/approvals/{id}', { params: { id } }), (approval) => printApproval(out, approval));
    }));

  for (const verb of ['approve', 'deny'] as const) {
    approvals
      .command(verb)
      .description(verb === 'approve' ? 'Approve a held call: it runs, with exactly the arguments shown' : 'Deny a held call: it is refused and nothing reaches the upstream')
      .argument('<id>', 'approval id')
      .option('-m, --comment <text>', 'why (kept with the approval, on the call’s record and in the audit trail; at most 2,000 characters)')
      .action(inContext(async ({ api, out }, id: string, options: { comment?: string }) => {
        const request = { params: { id }, json: { comment: options.comment ?? null } };
        const { body } =
          verb === 'approve' ? await api.request('POST', '/api/v1/approvals/{id}/approve', request) : await api.request('POST', '/api/v1/approvals/{id}/deny', request);
        if (out.json) return out.printJson(body);
        out.note(`${body.tool.qualifiedName} (execution ${body.executionId}): ${body.status}`);
      }));
  }
}

function printApproval(out: Output, a: ApprovalDetail): void {
  out.fields([
    ['approval', a.id],
    ['execution', a.executionId],
    ['status', colorState(out.c, a.status)],
    ['tool', a.tool.qualifiedName],
    ['description', a.tool.description],
    ['annotations', a.tool.annotations ? JSON.stringify(a.tool.annotations) : null],
    ['caller', `${a.caller.principalName} (${a.caller.principalId})`],
    ['interceptor', a.interceptor],
    ['why', a.message],
    ['held', a.createdAt],
    ['expires', a.expiresAt],
    ['decided', a.decidedAt ? `${a.decidedAt} by ${a.decidedBy?.name ?? '-'}` : null],
    ['comment', a.comment],
  ]);
  out.line(out.c.bold('arguments:'));
  out.line(jsonText(a.arguments, 2));
  out.line(out.c.bold(`the caller's latest calls (${a.callerRecentExecutions.length}):`));
  for (const e of a.callerRecentExecutions) out.line(`  ${shortTime(e.startedAt)} ${e.qualifiedName} ${colorState(out.c, e.status)}`);
}
