import type { Command } from 'commander';
import type { CurrentPrincipal, Health, Schemas, Source } from '../../api-types/rest-api.js';
import { isLoopback } from '../../config/app-config.js';
import { decideSandbox, UNSANDBOXED_WARNING } from '../../upstream/stdio/sandbox-probe.js';
import type { ApiClient } from '../api-client.js';
import { describeOrigin, keyAdvice, type ConnectionSettings } from '../connection-settings.js';
import { contextOf, type CliContext } from '../context.js';
import { ApiError, ServerUnreachable } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { countOf, failureSummary } from '../output.js';
import { oneLine } from '../terminal-text.js';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
  /** What to do about it (for warn and fail). */
  fix?: string;
}

/** A readiness check; the detail it has for a key with ops:read (latency, migrations, sandbox, …) openapi.yaml describes in words only. */
type ReadyCheck = Schemas['HealthIndicatorDto'] & Record<string, unknown>;

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('Check that Toolplane is reachable and ready, the key works, plugins are sandboxed and every source is healthy')
    .addHelpText(
      'after',
      `
Checks: the server answers /health/ready; the database, migrations and plugin sandbox (their
detail needs a key with ops:read; without it, bubblewrap is tried on this host when the server is
on loopback); the API key is accepted, and its role; each enabled source's health and last error.
Each check is one line with its reason; a failed one says what to fix.
Exit status: 0 all passed (warnings allowed), 1 a check failed, 3 the server could not be reached.`,
    )
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const checks = await runChecks(ctx);
      print(ctx, checks);
      const unreachable = checks.some((c) => c.name === 'server' && c.status === 'fail' && c.detail.startsWith('cannot reach'));
      if (unreachable) process.exitCode = EXIT.unreachable;
      else if (checks.some((c) => c.status === 'fail')) process.exitCode = EXIT.failed;
    });
}

async function runChecks({ api, settings }: CliContext): Promise<Check[]> {
  const checks: Check[] = [];
  let health: Health;
  try {
    const response = await api.request('GET', '/health/ready', { acceptStatuses: [503], timeoutMs: 10_000 });
    health = response.body;
    if (!health || typeof health !== 'object' || !health.details) throw new ApiError(response.status, 'NOT_TOOLPLANE', `${api.baseUrl}/health/ready did not answer as Toolplane does`);
  } catch (error) {
    const where = `the URL comes from ${describeOrigin(settings.origin.url, settings)}; set it with --url, TOOLPLANE_URL or "url" in ${settings.configFile}`;
    if (error instanceof ServerUnreachable) {
      checks.push({ name: 'server', status: 'fail', detail: error.message, fix: `start Toolplane ("toolplane serve" or "npm start") or point the CLI at it (${where})` });
    } else {
      checks.push({ name: 'server', status: 'fail', detail: `${api.baseUrl} is not a Toolplane that answers: ${messageOf(error)}`, fix: `check the URL (${where})` });
    }
    return checks;
  }

  const details: Record<string, ReadyCheck> = health.details;
  const down = Object.entries(details).filter(([, c]) => c.status === 'down').map(([name]) => name);
  checks.push(
    health.status === 'ok'
      ? { name: 'server', status: 'ok', detail: `${api.baseUrl} is ready` }
      : { name: 'server', status: 'fail', detail: `${api.baseUrl} answers but is not ready (${down.join(', ')} down)`, fix: 'see the checks below' },
  );
  const withDetail = Object.values(details).some((c) => Object.keys(c).length > 1);
  checks.push(databaseCheck(details.database, withDetail));
  checks.push(migrationsCheck(details.migrations, withDetail));
  if (details.calls?.status === 'down') {
    checks.push({ name: 'calls', status: 'fail', detail: 'Toolplane is shutting down (draining): new calls are refused', fix: 'wait for it to stop and start it again' });
  }

  const access = await keyCheck(api, settings).catch((error: unknown) => ({ check: failedCheck('api key', error), permissions: new Set<string>() }));
  checks.push(access.check);
  checks.push(sandboxCheck(api, withDetail ? details.sandbox : undefined));
  if (access.permissions.has('sources:read')) checks.push(...(await sourceChecks(api).catch((error: unknown) => [failedCheck('sources', error)])));
  else if (access.check.status === 'ok') checks.push({ name: 'sources', status: 'skip', detail: 'this key may not read sources (sources:read)' });
  return checks;
}

/** A check that could not be made (the server failed to answer it, say): its reason, not a trace. */
function failedCheck(name: string, error: unknown): Check {
  return { name, status: 'fail', detail: `could not check: ${messageOf(error)}` };
}

/** An error's code and reason, on one line. */
function messageOf(error: unknown): string {
  if (error instanceof ApiError) return `${error.code}: ${failureSummary(error.message)}`;
  return failureSummary(error instanceof Error ? error.message : String(error));
}

function databaseCheck(check: ReadyCheck | undefined, withDetail: boolean): Check {
  if (!check) return { name: 'database', status: 'skip', detail: 'not reported by /health/ready' };
  if (check.status === 'up') {
    return { name: 'database', status: 'ok', detail: withDetail && typeof check.latencyMs === 'number' ? `answers in ${check.latencyMs} ms` : 'answers' };
  }
  return {
    name: 'database',
    status: 'fail',
    detail: `PostgreSQL does not answer${withDetail && check.error ? `: ${failureSummary(String(check.error))}` : ''}`,
    fix: 'check that PostgreSQL is running and DATABASE_URL (or the embedded database in TOOLPLANE_DATA_DIR) is right; Toolplane\'s log says more',
  };
}

function migrationsCheck(check: ReadyCheck | undefined, withDetail: boolean): Check {
  if (!check) return { name: 'migrations', status: 'skip', detail: 'not reported by /health/ready' };
  const pending = Array.isArray(check.pending) ? (check.pending as string[]) : [];
  if (check.status === 'up') {
    return { name: 'migrations', status: 'ok', detail: withDetail && typeof check.applied === 'number' ? `${check.applied} applied, none pending` : 'none pending' };
  }
  return {
    name: 'migrations',
    status: 'fail',
    detail: pending.length > 0 ? `pending: ${pending.join(', ')}` : 'not every migration is applied',
    fix: 'run "toolplane migrate" with the server\'s DATABASE_URL (or restart Toolplane, which migrates at start)',
  };
}

/** Whether the key is accepted, and who it names with which roles and permissions (GET /api/v1/access/me). */
async function keyCheck(api: ApiClient, settings: ConnectionSettings): Promise<{ check: Check; permissions: Set<string> }> {
  if (!api.hasKey) {
    return { check: { name: 'api key', status: 'fail', detail: 'no API key given', fix: oneLine(keyAdvice(settings)) }, permissions: new Set() };
  }
  let me: CurrentPrincipal;
  try {
    me = await api.getJson('/api/v1/access/me');
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const fix =
      error.status === 401 || error.status === 429
        ? `use a valid, unrevoked, unexpired key (this one comes from ${describeOrigin(settings.origin.key, settings)}); an admin creates one with "toolplane keys create NAME --role agent"`
        : undefined;
    return { check: { name: 'api key', status: 'fail', detail: `refused: ${messageOf(error)}`, fix }, permissions: new Set() };
  }
  const restricted =
    me.allowedSources || me.allowedTools || me.allowedGroups
      ? `; restricted to sources ${me.allowedSources?.join(', ') ?? 'any'}, tools ${me.allowedTools?.join(', ') ?? 'any'}${me.allowedGroups ? `, only through the groups ${me.allowedGroups.join(', ')}` : ''}`
      : '';
  // A key the CLI found by itself is named, so that nobody wonders which key was used.
  const found = settings.origin.key === 'admin-key' ? ` (key from ${settings.adminKeyFile})` : '';
  const detail = `accepted: ${me.name}, role ${me.roles.join(', ') || 'none'} (may: ${[...me.permissions].sort().join(', ')})${restricted}${found}`;
  return { check: { name: 'api key', status: 'ok', detail }, permissions: new Set(me.permissions) };
}

/** Plugins that run without a sandbox fail the check: they can read what Toolplane can. */
function sandboxCheck(api: ApiClient, check: ReadyCheck | undefined): Check {
  if (check && typeof check.enabled === 'boolean') {
    const mode = `TOOLPLANE_SANDBOX=${String(check.mode)}`;
    if (check.enabled) {
      const runAs = check.runAs as { uid: number; gid: number } | null;
      return { name: 'sandbox', status: 'ok', detail: `stdio plugins run in a bubblewrap sandbox ${runAs ? `as uid ${runAs.uid}, gid ${runAs.gid}` : "as Toolplane's own user"} (${mode})` };
    }
    return { name: 'sandbox', status: 'fail', detail: `stdio plugins run WITHOUT a sandbox: ${String(check.reason)}; ${String(check.warning)}`, fix: String(check.fix) };
  }
  // No detail (a key without ops:read): a server on this host would find what a trial run here finds.
  const host = new URL(api.baseUrl).hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || isLoopback(host)) {
    const status = decideSandbox({
      mode: 'auto',
      bwrapPath: process.env.TOOLPLANE_SANDBOX_BWRAP?.trim() || '/usr/bin/bwrap',
      dataDir: process.env.TOOLPLANE_DATA_DIR?.trim() || './.toolplane',
      uid: 65534,
      gid: 65534,
      currentUid: process.getuid?.() ?? -1,
    });
    return status.enabled
      ? { name: 'sandbox', status: 'ok', detail: "bubblewrap works on this host (tried here: this key may not read the server's own report, ops:read)" }
      : { name: 'sandbox', status: 'fail', detail: `plugins would run without a sandbox on this host: ${status.reason}; ${UNSANDBOXED_WARNING}`, fix: status.fix };
  }
  return { name: 'sandbox', status: 'skip', detail: 'this key may not read the server\'s report (ops:read) and the server is on another host; run "toolplane doctor" there with an admin or operator key' };
}

async function sourceChecks(api: ApiClient): Promise<Check[]> {
  const sources: Source[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.getJson('/api/v1/sources', { query: { limit: 200, cursor } });
    sources.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  if (sources.length === 0) return [{ name: 'sources', status: 'ok', detail: 'none registered yet ("toolplane sources add")' }];
  return sources.map((s): Check => {
    const name = `source ${s.name}`;
    if (!s.enabled) return { name, status: 'skip', detail: 'disabled' };
    const fix = `"toolplane sources get ${s.name}" shows the details; fix the cause (command, env, secrets, the upstream itself), then "toolplane sources refresh ${s.name}"`;
    switch (s.health) {
      case 'healthy':
        return { name, status: 'ok', detail: `healthy, ${countOf(s.toolCount, 'tool')}` };
      case 'unknown':
        return { name, status: 'warn', detail: 'not discovered yet', fix: `wait, or run "toolplane sources refresh ${s.name}"` };
      case 'degraded':
        return { name, status: 'warn', detail: `degraded${s.lastError ? `: ${failureSummary(s.lastError)}` : ''}`, fix };
      default: {
        const inARow = s.consecutiveFailures ? ` (${countOf(s.consecutiveFailures, 'failure')} in a row)` : '';
        return { name, status: 'fail', detail: `${s.health}${inARow}${s.lastError ? `: ${failureSummary(s.lastError)}` : ''}`, fix };
      }
    }
  });
}

function print({ out, api }: CliContext, checks: Check[]): void {
  const failed = checks.filter((c) => c.status === 'fail').length;
  if (out.json) return out.printJson({ url: api.baseUrl, ok: failed === 0, checks });
  const c = out.c;
  const mark: Record<CheckStatus, string> = { ok: c.green('✓'), warn: c.yellow('!'), fail: c.red('✗'), skip: c.dim('-') };
  const width = Math.max(...checks.map((check) => check.name.length));
  // One line per check, whatever its detail holds (a source's last error is an upstream's text).
  for (const check of checks) {
    const detail = oneLine(check.detail);
    out.line(`${mark[check.status]} ${oneLine(check.name).padEnd(width)}  ${check.status === 'skip' ? c.dim(detail) : detail}`);
    if (check.fix && check.status !== 'ok') out.line(`  ${' '.repeat(width)}  ${c.bold('fix:')} ${oneLine(check.fix)}`);
  }
  out.line(failed === 0 ? c.green('no problem found') : c.red(`${countOf(failed, 'check')} failed`));
}
