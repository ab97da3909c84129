// A large, varied, deterministic tool inventory for the catalog workload: `sourceCount` sources
// named after the services a platform team connects (github-payments, jira-search, …), each with
// `toolsPerSource` tools combining an action and an object of that service, with titles,
// descriptions, input schemas and annotations that differ from tool to tool, so that full-text
// search ranks real text. The same arguments always give the same inventory.

const SERVICES = [
  ['github', 'GitHub', ['pull_request', 'issue', 'branch', 'commit', 'release', 'workflow_run', 'review', 'label', 'milestone', 'repository']],
  ['gitlab', 'GitLab', ['merge_request', 'issue', 'pipeline', 'job', 'branch', 'tag', 'project', 'runner', 'snippet', 'environment']],
  ['jira', 'Jira', ['issue', 'sprint', 'epic', 'board', 'comment', 'worklog', 'version', 'component', 'filter', 'transition']],
  ['confluence', 'Confluence', ['page', 'space', 'comment', 'attachment', 'label', 'template', 'blog_post', 'draft', 'restriction', 'macro']],
  ['slack', 'Slack', ['message', 'channel', 'thread', 'reaction', 'user', 'reminder', 'bookmark', 'file', 'user_group', 'emoji']],
  ['linear', 'Linear', ['issue', 'cycle', 'project', 'team', 'comment', 'label', 'roadmap', 'attachment', 'initiative', 'triage_item']],
  ['notion', 'Notion', ['page', 'database', 'block', 'comment', 'user', 'property', 'view', 'template', 'workspace', 'relation']],
  ['postgres', 'PostgreSQL', ['table', 'query', 'index', 'schema', 'role', 'replication_slot', 'extension', 'view', 'sequence', 'vacuum_report']],
  ['redis', 'Redis', ['key', 'stream', 'hash', 'sorted_set', 'pubsub_channel', 'cluster_node', 'slowlog_entry', 'module', 'memory_report', 'lua_script']],
  ['s3', 'Amazon S3', ['bucket', 'object', 'multipart_upload', 'lifecycle_rule', 'bucket_policy', 'access_point', 'inventory_report', 'object_version', 'presigned_url', 'replication_rule']],
  ['kubernetes', 'Kubernetes', ['pod', 'deployment', 'service', 'namespace', 'config_map', 'secret', 'node', 'ingress', 'cron_job', 'event']],
  ['datadog', 'Datadog', ['monitor', 'dashboard', 'metric', 'log', 'trace', 'slo', 'incident', 'synthetic_test', 'notebook', 'downtime']],
  ['sentry', 'Sentry', ['issue', 'event', 'release', 'project', 'alert_rule', 'team', 'replay', 'breadcrumb', 'source_map', 'environment']],
  ['pagerduty', 'PagerDuty', ['incident', 'schedule', 'escalation_policy', 'service', 'on_call', 'alert', 'maintenance_window', 'responder', 'postmortem', 'user']],
  ['stripe', 'Stripe', ['payment', 'refund', 'customer', 'invoice', 'subscription', 'charge', 'payout', 'dispute', 'coupon', 'price']],
  ['salesforce', 'Salesforce', ['lead', 'contact', 'account', 'opportunity', 'campaign', 'case', 'task', 'report', 'quote', 'contract']],
  ['hubspot', 'HubSpot', ['contact', 'company', 'deal', 'ticket', 'email_campaign', 'form', 'workflow', 'list', 'note', 'meeting']],
  ['zendesk', 'Zendesk', ['ticket', 'user', 'organization', 'macro', 'view', 'article', 'satisfaction_rating', 'trigger', 'group', 'tag']],
  ['gdrive', 'Google Drive', ['file', 'folder', 'permission', 'shared_drive', 'revision', 'comment', 'shortcut', 'label', 'export', 'activity']],
  ['calendar', 'Google Calendar', ['event', 'calendar', 'attendee', 'reminder', 'free_busy_slot', 'room', 'recurring_series', 'invitation', 'working_location', 'acl_rule']],
  ['gmail', 'Gmail', ['message', 'thread', 'draft', 'label', 'filter', 'attachment', 'signature', 'forwarding_address', 'vacation_reply', 'contact']],
  ['figma', 'Figma', ['file', 'frame', 'component', 'comment', 'style', 'version', 'project', 'variable', 'dev_resource', 'prototype']],
  ['snowflake', 'Snowflake', ['warehouse', 'table', 'query', 'stage', 'pipe', 'task', 'stream', 'share', 'role', 'masking_policy']],
  ['bigquery', 'BigQuery', ['dataset', 'table', 'job', 'query', 'routine', 'model', 'reservation', 'transfer_config', 'view', 'row_access_policy']],
  ['terraform', 'Terraform Cloud', ['workspace', 'run', 'plan', 'state_version', 'variable', 'module', 'policy_set', 'team', 'agent_pool', 'provider']],
];
const TEAMS = ['core', 'payments', 'search', 'growth'];

// name, title verb, description of what it does (`o` is the object in words, `s` the service)
const ACTIONS = [
  ['list', 'List', (o, s) => `Lists the ${o}s in ${s}, newest first, one page at a time.`, true],
  ['get', 'Get', (o, s) => `Returns one ${o} from ${s} by its id, with every field.`, true],
  ['search', 'Search', (o, s) => `Searches ${s} ${o}s by free text and filters, best matches first.`, true],
  ['count', 'Count', (o, s) => `Counts the ${o}s in ${s} that match the given filters.`, true],
  ['create', 'Create', (o, s) => `Creates a new ${o} in ${s} and returns it.`, false],
  ['update', 'Update', (o, s) => `Updates fields of an existing ${o} in ${s}; fields not given are left unchanged.`, false],
  ['delete', 'Delete', (o, s) => `Deletes a ${o} from ${s}. This cannot be undone.`, false],
  ['archive', 'Archive', (o, s) => `Archives a ${o} in ${s}: hidden from lists but kept for audit.`, false],
  ['export', 'Export', (o, s) => `Exports ${o}s from ${s} as CSV or JSON for reporting.`, true],
  ['sync', 'Sync', (o, s) => `Synchronises ${o}s between ${s} and the internal inventory.`, false],
  ['watch', 'Watch', (o, s) => `Subscribes to changes of a ${o} in ${s} and reports them.`, true],
  ['assign', 'Assign', (o, s) => `Assigns a ${o} in ${s} to a user or team.`, false],
];

const DETAILS = [
  'Supports filtering by owner, status and creation date.',
  'Results are paginated with an opaque cursor; pass it back to get the next page.',
  'Requires the read scope of the integration token.',
  'Requires write access; the call is recorded in the audit log.',
  'Rate limited by the upstream API to a few hundred calls per minute.',
  'Timestamps are ISO 8601 in UTC.',
  'Use dryRun to preview the change without applying it.',
  'Large results are truncated; narrow the filters to see everything.',
  'Useful for weekly reports, on-call handovers and incident reviews.',
  'Archived and deleted items are excluded unless includeArchived is set.',
  'Returns the URL of the item in the web interface as well.',
  'Idempotent: repeating the call with the same key has no further effect.',
  'Fields can be limited with the fields parameter to keep answers small.',
  'Works across every project the token can see.',
];

const PARAMETERS = {
  id: { type: 'string', description: 'Identifier of the item' },
  query: { type: 'string', description: 'Free-text search terms' },
  limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Maximum number of results' },
  cursor: { type: 'string', description: 'Cursor of the next page' },
  owner: { type: 'string', description: 'Owner login or team slug' },
  status: { type: 'string', enum: ['open', 'closed', 'all'], description: 'Status filter' },
  since: { type: 'string', format: 'date-time', description: 'Only items changed since this time' },
  fields: { type: 'array', items: { type: 'string' }, description: 'Fields to include' },
  dryRun: { type: 'boolean', description: 'Preview the change without applying it' },
  format: { type: 'string', enum: ['csv', 'json'], description: 'Export format' },
  assignee: { type: 'string', description: 'User or team to assign to' },
  payload: { type: 'object', description: 'Fields to set', additionalProperties: true },
};
const ACTION_PARAMETERS = {
  list: ['limit', 'cursor', 'owner', 'status', 'since'],
  get: ['id', 'fields'],
  search: ['query', 'limit', 'status', 'since'],
  count: ['owner', 'status', 'since'],
  create: ['payload', 'dryRun'],
  update: ['id', 'payload', 'dryRun'],
  delete: ['id', 'dryRun'],
  archive: ['id'],
  export: ['format', 'since', 'fields'],
  sync: ['since', 'dryRun'],
  watch: ['id', 'since'],
  assign: ['id', 'assignee'],
};

/** A small deterministic PRNG (mulberry32). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (rand, list) => list[Math.floor(rand() * list.length)];
const words = (identifier) => identifier.replace(/_/g, ' ');

/** The source names of the inventory: `${service}-${team}`, service by service. */
export function catalogSourceNames(sourceCount) {
  const names = [];
  for (let i = 0; i < sourceCount; i++) {
    const [service] = SERVICES[i % SERVICES.length];
    const team = TEAMS[Math.floor(i / SERVICES.length) % TEAMS.length];
    const round = Math.floor(i / (SERVICES.length * TEAMS.length));
    names.push(`${service}-${team}${round > 0 ? `-${round + 1}` : ''}`);
  }
  return names;
}

function toolDefinition(rand, serviceTitle, action, object, variant) {
  const [verb, titleVerb, describe, readOnly] = action;
  const suffix = variant > 0 ? `_v${variant + 1}` : '';
  const properties = {};
  for (const key of ACTION_PARAMETERS[verb]) if (rand() < 0.8) properties[key] = PARAMETERS[key];
  const details = [pick(rand, DETAILS), pick(rand, DETAILS)].filter((d, i, all) => all.indexOf(d) === i);
  const required = verb === 'get' || verb === 'update' || verb === 'delete' ? ['id'] : [];
  for (const key of required) properties[key] = PARAMETERS[key];
  return {
    name: `${verb}_${object}${suffix}`,
    title: `${titleVerb} ${serviceTitle} ${words(object)}${variant > 0 ? ` (v${variant + 1})` : ''}`,
    description: `${describe(words(object), serviceTitle)} ${details.join(' ')}`,
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}) },
    annotations: { readOnlyHint: readOnly, destructiveHint: verb === 'delete', idempotentHint: readOnly },
  };
}

/** The `toolsPerSource` tool definitions of the `index`-th source (as its upstream lists them). */
export function catalogTools(index, toolsPerSource) {
  const [, serviceTitle, objects] = SERVICES[index % SERVICES.length];
  const rand = random(index + 1);
  const tools = [];
  // Every (action, object) pair once, in a shuffled order, then versioned variants if more are asked.
  const pairs = ACTIONS.flatMap((action) => objects.map((object) => [action, object]));
  for (let i = pairs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [pairs[i], pairs[j]] = [pairs[j], pairs[i]];
  }
  for (let n = 0; n < toolsPerSource; n++) {
    const [action, object] = pairs[n % pairs.length];
    tools.push(toolDefinition(rand, serviceTitle, action, object, Math.floor(n / pairs.length)));
  }
  return tools;
}

/** Searches of the catalog workload: product names, actions, objects, prefixes, phrases, a miss. */
export const CATALOG_QUERIES = [
  'pull request',
  'github',
  'create invoice',
  'refund payment',
  'kubernetes pod',
  'delete',
  'list tickets',
  'export csv report',
  'incident on call',
  'calendar event attendee',
  'get-us',
  'slack message thread',
  'archive',
  'sync contacts',
  'query warehouse table',
  'merge_request pipeline',
  'dashboard monitor',
  'audit log',
  'presigned',
  'nonexistentwordxyz',
];
