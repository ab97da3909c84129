import type { Approval } from './approval.js';

/** A Slack-compatible message (`text` for notifications, `blocks` for the layout). */
export interface ApprovalMessage {
  text: string;
  blocks: Record<string, unknown>[];
}

/** Slack's own limit on a section's text; longer is cut. */
const SECTION_CHARS = 3000;

/** What a held call's notification says: the tool, the caller, why, and the console's link to decide it. */
export function approvalMessage(approval: Approval, consoleUrl: string): ApprovalMessage {
  const who = approval.caller.principalName;
  const text = `${who} asks to call ${approval.qualifiedName}: approval needed (${approval.interceptor}).`;
  const fields = [
    `*Tool*\n${approval.qualifiedName}`,
    `*Caller*\n${who}`,
    `*Interceptor*\n${approval.interceptor}`,
    `*Expires*\n${approval.expiresAt.toISOString()}`,
  ];
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: cut(`*Approval needed*: ${who} asks to call \`${approval.qualifiedName}\`.${approval.message ? `\n${approval.message}` : ''}`) } },
      { type: 'section', fields: fields.map((field) => ({ type: 'mrkdwn', text: cut(field) })) },
      { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Review in Toolplane' }, url: consoleUrl }] },
    ],
  };
}

/** The console's page of one approval under Toolplane's public URL. */
export function approvalConsoleUrl(publicUrl: string, id: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/console/approvals/${encodeURIComponent(id)}`;
}

function cut(text: string): string {
  return text.length <= SECTION_CHARS ? text : `${text.slice(0, SECTION_CHARS - 1)}…`;
}
