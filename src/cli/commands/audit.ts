import type { Command } from 'commander';
import type { AuditChainReport, ExecutionChainReport } from '../../api-types/rest-api.js';
import type { QueryFor } from '../api-client.js';
import { inContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { withPageOptions } from '../input.js';
import { orDash, shortTime, type Output } from '../output.js';

/** What either chain's verification reports (the execution history's with its unlinked and pending records). */
type ChainReport = AuditChainReport | ExecutionChainReport;

export function registerAuditCommands(program: Command): void {
  const audit = program.command('audit').description('The audit trail of administrative changes, and the integrity of the signed chains');

  withPageOptions(
    audit
      .command('ls')
      .description('List audit events, newest first')
      .option('--action <action>', 'e.g. source.registered, api-key.revoked')
      .option('--target-type <type>', 'source, tool, secret or api-key')
      .option('--target <target>', 'target id or name')
      .option('--actor <actor>', 'who made the change')
      .option('--since <time>', 'at or after (ISO 8601)')
      .option('--until <time>', 'before (ISO 8601)'),
    'events per page',
  ).action(inContext(async ({ api, out }, options: QueryFor<'/api/v1/audit-events', 'get'>) => {
    const page = await api.getJson('/api/v1/audit-events', {
      query: {
        action: options.action,
        targetType: options.targetType,
        target: options.target,
        actor: options.actor,
        since: options.since,
        until: options.until,
        limit: options.limit,
        cursor: options.cursor,
      },
    });
    out.page(
      page,
      [
        { header: 'SEQ', value: (e) => String(e.seq), align: 'right' },
        { header: 'TIME', value: (e) => shortTime(e.occurredAt) },
        { header: 'ACTOR', value: (e) => e.actor },
        { header: 'ACTION', value: (e) => e.action },
        { header: 'TARGET', value: (e) => `${e.targetType} ${orDash(e.targetName ?? e.targetId)}` },
        { header: 'CLIENT', value: (e) => orDash(e.clientAddress) },
      ],
      'no audit events',
    );
  }));

  audit
    .command('verify')
    .description('Verify the signed hash chains of the audit trail and of the execution history')
    .addHelpText('after', '\nExits with 1 when either chain is not intact. --json prints {"audit": …, "executions": …}, the two reports as the API gives them.')
    .action(inContext(async ({ api, out }) => {
      const [auditReport, executionReport] = await Promise.all([
        api.getJson('/api/v1/audit-events/verify'),
        api.getJson('/api/v1/executions/verify'),
      ]);
      if (out.json) out.printJson({ audit: auditReport, executions: executionReport });
      else {
        printReport(out, 'audit trail', auditReport);
        printReport(out, 'executions', executionReport);
      }
      if (!auditReport.intact || !executionReport.intact) process.exitCode = EXIT.failed;
    }));
}

function printReport(out: Output, name: string, report: ChainReport): void {
  const verdict = report.intact ? out.c.green('intact') : out.c.red('BROKEN');
  const extra = [
    `${report.events} verified`,
    report.head ? `head #${report.head.seq} ${report.head.hash.slice(0, 16)}…` : 'empty',
    'pending' in report ? `${report.pending} pending` : undefined,
    'unlinked' in report && report.unlinked.count > 0 ? `${report.unlinked.count} outside the chain (first ${report.unlinked.firstId})` : undefined,
  ].filter(Boolean);
  out.line(`${out.c.bold(name.padEnd(12))} ${verdict}  ${extra.join(', ')}`);
  if (report.firstProblem) {
    const p = report.firstProblem;
    out.line(`  ${out.c.red(`#${p.seq} ${p.problem}`)}${p.id ? ` (${p.id})` : ''}: ${p.detail}`);
  }
}
