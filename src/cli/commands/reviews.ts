import type { Command } from 'commander';
import type { Review } from '../../api-types/rest-api.js';
import type { QueryFor } from '../api-client.js';
import { colorState } from '../colors.js';
import { inContext } from '../context.js';
import { withPageOptions } from '../input.js';
import { orDash, shortTime, type Output } from '../output.js';
import { jsonText } from '../terminal-text.js';
import { colorSeverity } from './tools.js';

export function registerReviewCommands(program: Command): void {
  const reviews = program.command('reviews').description('Tool definitions held by their source’s pinning: list, show the diff, approve or reject');

  withPageOptions(
    reviews
      .command('ls')
      .description('List reviews, newest first (by default the pending ones)')
      .option('--state <state>', 'pending (the default), approved, rejected or superseded')
      .option('-a, --all', 'every state')
      .option('-s, --source <source>', 'only the reviews of this source (name or id)'),
    'reviews per page (1-200)',
  ).action(inContext(async ({ api, out }, options: QueryFor<'/api/v1/reviews', 'get'> & { all?: boolean }) => {
    const page = await api.getJson('/api/v1/reviews', {
      query: { state: options.all ? undefined : (options.state ?? 'pending'), source: options.source, limit: options.limit, cursor: options.cursor },
    });
    out.page(
      page,
      [
        { header: 'ID', value: (r) => r.id },
        { header: 'TOOL', value: (r) => r.qualifiedName },
        { header: 'STATE', value: (r) => r.state, style: (text) => colorState(out.c, text) },
        { header: 'CHANGES', value: (r) => r.changes.join(', '), maxWidth: 60 },
        { header: 'FINDINGS', value: (r) => findingsSummary(r) },
        { header: 'OPENED', value: (r) => shortTime(r.createdAt) },
      ],
      'no reviews',
    );
  }));

  reviews
    .command('get')
    .description('Show one review: what changed, field by field, and what the definition scan found')
    .argument('<id>', 'review id')
    .action(inContext(async ({ api, out }, id: string) => {
      out.result(await api.getJson('/api/v1/reviews/{id}', { params: { id } }), (review) => printReview(out, review));
    }));

  for (const verb of ['approve', 'reject'] as const) {
    reviews
      .command(verb)
      .description(verb === 'approve' ? 'Approve a held definition: it becomes the approved one and is served' : 'Reject a held definition: the tool stays held until its upstream changes it again')
      .argument('<id>', 'review id')
      .option('-m, --comment <text>', 'why (kept with the review and in the audit trail)')
      .action(inContext(async ({ api, out }, id: string, options: { comment?: string }) => {
        const request = { params: { id }, json: { comment: options.comment ?? null } };
        const { body } =
          verb === 'approve' ? await api.request('POST', '/api/v1/reviews/{id}/approve', request) : await api.request('POST', '/api/v1/reviews/{id}/reject', request);
        if (out.json) return out.printJson(body);
        out.note(`${body.qualifiedName}: ${body.state}`);
      }));
  }
}

function findingsSummary(review: Review): string {
  if (review.findings.length === 0) return '-';
  const high = review.findings.filter((f) => f.severity === 'high').length;
  return high > 0 ? `${review.findings.length} (${high} high)` : String(review.findings.length);
}

function printReview(out: Output, r: Review): void {
  out.fields([
    ['review', r.id],
    ['tool', r.qualifiedName],
    ['source', r.source.name],
    ['state', colorState(out.c, r.state)],
    ['changes', r.changes.join(', ')],
    ['opened', r.createdAt],
    ['decided', r.decidedAt ? `${r.decidedAt} by ${r.decidedBy}` : null],
    ['comment', r.comment],
  ]);
  for (const f of r.findings) out.line(`  ${colorSeverity(out, f.severity)} ${f.rule} at ${f.path}: ${f.message} (${JSON.stringify(f.excerpt)})`);
  const diff = r.diff;
  if (!diff) {
    out.line(out.c.bold('new tool, no previous definition:'));
    out.line(jsonText(r.definition, 2));
    return;
  }
  if (diff.name) out.line(`${out.c.bold('name:')} ${String(diff.name.before)} → ${String(diff.name.after)}`);
  if (diff.title) out.line(`${out.c.bold('title:')} ${orDash(diff.title.before as string | null)} → ${orDash(diff.title.after as string | null)}`);
  if (diff.description) {
    out.line(out.c.bold('description:'));
    out.line(diff.description.hunks.map((h) => (h.op === 'added' ? out.c.green(`{+${h.text}+}`) : h.op === 'removed' ? out.c.red(`[-${h.text}-]`) : h.text)).join(''));
  }
  for (const a of diff.annotations) out.line(`${out.c.bold(`annotations.${a.name}:`)} ${JSON.stringify(a.before)} → ${JSON.stringify(a.after)}`);
  for (const [label, schema] of [
    ['input schema', diff.inputSchema],
    ['output schema', diff.outputSchema],
    ['other fields', diff.other],
  ] as const) {
    if (!schema) continue;
    out.line(out.c.bold(`${label}:`));
    for (const c of schema.changes) {
      const sign = c.op === 'added' ? out.c.green('+') : c.op === 'removed' ? out.c.red('-') : out.c.yellow('~');
      const values = c.op === 'added' ? JSON.stringify(c.after) : c.op === 'removed' ? JSON.stringify(c.before) : `${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`;
      out.line(`  ${sign} ${c.path || '/'} ${values}`);
    }
    if (schema.truncated) out.line(out.c.dim('  … more changes than shown'));
  }
}
