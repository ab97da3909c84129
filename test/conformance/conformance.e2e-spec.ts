import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { expectNoProcesses } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES } from '../helpers/upstreams.js';
import { KNOWN_GAPS, REQUIRED_SCENARIOS, TASK_GAPS, TASK_NOT_APPLICABLE, TASK_SCENARIOS_PASSING } from './conformance-requirements.js';
import { writeConformanceReport } from './conformance-report.js';
import { failureDetail, listServerScenarios, runConformanceScenarios, runConformanceSuite, SUITES, type ConformanceEra, type SuiteRun } from './conformance-suite.js';

const SOURCE = 'conformance';
/** The source whose tools run as tasks upstream, for the tasks extension's scenarios. */
const TASK_SOURCE = 'conformance-tasks';
const TASK_SCENARIOS = [...TASK_SCENARIOS_PASSING, ...Object.keys(TASK_GAPS), ...Object.keys(TASK_NOT_APPLICABLE)];
/** The source whose upstream speaks 2026-07-28 itself (rounds of input before a task), and the scenarios that need one. */
const MODERN_TASK_SOURCE = 'conformance-modern-tasks';
const MODERN_UPSTREAM_SCENARIOS = new Set(['tasks-mrtr-composition']);
/**
 * The tools the conformance project's own reference server answers without `resultType` on
 * 2026-07-28 (bare-results.mjs): the fixture does as it does, and Toolplane reads them as complete.
 */
const BARE_RESULT_TOOLS = ['test_image_content', 'test_audio_content', 'test_embedded_resource', 'test_multiple_content_types', 'test_sampling', 'test_elicitation'];
const SUITE_TIMEOUT_MS = 240_000;
const TASK_SCENARIOS_TIMEOUT_MS = 180_000;
/** `npm run conformance` sets it: where the pass tables are written (docs/conformance.md). */
const REPORT_FILE = process.env.TOOLPLANE_CONFORMANCE_REPORT;

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, both eras) against
 * `/mcp/sources/{name}`, with Toolplane fronting an SDK fixture server that implements the tools
 * the scenarios call. The suite cannot send credentials: this Toolplane runs with authentication
 * off (loopback only).
 */
describe('MCP conformance of /mcp/sources/{name}', () => {
  let h: Harness;
  const tag = `conformance-${randomUUID()}`;
  const runs = new Map<ConformanceEra, SuiteRun>();
  let taskRun: SuiteRun | undefined;
  let listedTaskScenarios: string[] = [];

  beforeAll(async () => {
    // A task whose upstream waits for input never ends by itself (see TASK_GAPS): shutdown cuts it off soon.
    h = await startHarness({ TOOLPLANE_AUTH: 'off', TOOLPLANE_SHUTDOWN_GRACE_MS: '2000' });
    const created = await h.api.post('/api/v1/sources', {
      name: SOURCE,
      transport: 'stdio',
      lifecycle: 'singleton',
      command: 'node',
      args: [join(FIXTURES, 'conformance-server.mjs'), tag],
      env: { BARE_RESULT_TOOLS: BARE_RESULT_TOOLS.join(',') },
      refreshIntervalSeconds: 0,
    });
    expect(created.body).toMatchObject({ name: SOURCE, health: 'healthy' });
    const tasks = await h.api.post('/api/v1/sources', {
      name: TASK_SOURCE,
      transport: 'stdio',
      lifecycle: 'singleton',
      command: 'node',
      args: [join(FIXTURES, 'conformance-task-server.mjs'), tag],
      refreshIntervalSeconds: 0,
    });
    expect(tasks.body).toMatchObject({ name: TASK_SOURCE, health: 'healthy' });
    const modernTasks = await h.api.post('/api/v1/sources', {
      name: MODERN_TASK_SOURCE,
      transport: 'stdio',
      lifecycle: 'singleton',
      command: 'node',
      args: [join(FIXTURES, 'modern-task-server.mjs'), 'stdio', tag],
      refreshIntervalSeconds: 0,
    });
    expect(modernTasks.body).toMatchObject({ name: MODERN_TASK_SOURCE, health: 'healthy' });
    const url = `${h.url}/mcp/sources/${SOURCE}`;
    // One suite after the other: the machine has two cores, and both suites drive the same process.
    for (const era of Object.keys(SUITES) as ConformanceEra[]) runs.set(era, await runConformanceSuite(SUITES[era], url, SUITE_TIMEOUT_MS));
    const taskRelease = SUITES['2026-07-28'];
    listedTaskScenarios = await listServerScenarios(taskRelease, 'tasks-');
    const throughLegacy = await runConformanceScenarios(taskRelease, `${h.url}/mcp/sources/${TASK_SOURCE}`, TASK_SCENARIOS.filter((scenario) => !MODERN_UPSTREAM_SCENARIOS.has(scenario)), TASK_SCENARIOS_TIMEOUT_MS);
    const throughModern = await runConformanceScenarios(taskRelease, `${h.url}/mcp/sources/${MODERN_TASK_SOURCE}`, [...MODERN_UPSTREAM_SCENARIOS], TASK_SCENARIOS_TIMEOUT_MS);
    taskRun = { ...throughLegacy, scenarios: [...throughLegacy.scenarios, ...throughModern.scenarios], durationMs: throughLegacy.durationMs + throughModern.durationMs, output: throughLegacy.output + throughModern.output };
    if (REPORT_FILE) writeConformanceReport(REPORT_FILE, [...runs.values()], taskRun);
  }, 2 * SUITE_TIMEOUT_MS + TASK_SCENARIOS_TIMEOUT_MS + 60_000);

  afterAll(async () => {
    await h?.close();
    await expectNoProcesses([tag]);
  });

  describe.each(Object.keys(SUITES) as ConformanceEra[])('%s', (era) => {
    const gaps = KNOWN_GAPS[era];
    const required = REQUIRED_SCENARIOS[era].filter((scenario) => !(scenario in gaps));
    const resultOf = (scenario: string) => runs.get(era)?.scenarios.find((result) => result.scenario === scenario);

    it.each(required)('passes %s', (scenario) => {
      const result = resultOf(scenario);
      if (!result) throw new Error(`${scenario} did not run:\n${runs.get(era)?.output.slice(-4000)}`);
      if (!result.passed) throw new Error(`${scenario} failed:\n${failureDetail(result)}`);
    });

    const knownGaps = Object.keys(gaps);
    if (knownGaps.length > 0) {
      it.each(knownGaps)('still fails %s (a known gap; remove it from KNOWN_GAPS once it passes)', (scenario) => {
        expect(resultOf(scenario)?.passed).toBe(false);
      });
    }
  });

  describe('2026-07-28 tasks extension (through a 2025-11-25 source whose tools run as tasks, and a 2026-07-28 one)', () => {
    const resultOf = (scenario: string) => taskRun?.scenarios.find((result) => result.scenario === scenario);
    const ranOf = (scenario: string) => {
      const result = resultOf(scenario);
      if (!result) throw new Error(`${scenario} did not run:\n${taskRun?.output.slice(-4000)}`);
      return result;
    };

    it('classifies every tasks-* scenario of the release', () => {
      expect([...TASK_SCENARIOS].sort()).toEqual([...listedTaskScenarios].sort());
    });

    it.each(TASK_SCENARIOS_PASSING)('passes %s', (scenario) => {
      const result = ranOf(scenario);
      if (result.checks.every((check) => check.status === 'SKIPPED')) throw new Error(`${scenario} exercised nothing: every check was skipped`);
      if (!result.passed) throw new Error(`${scenario} failed:\n${failureDetail(result)}`);
    });

    const taskGaps = Object.keys(TASK_GAPS);
    if (taskGaps.length > 0) {
      it.each(taskGaps)('still fails %s, in exactly the checks TASK_GAPS names (move it to TASK_SCENARIOS_PASSING once it passes)', (scenario) => {
        const failing = ranOf(scenario).checks.filter((check) => check.status === 'FAILURE').map((check) => check.id);
        expect(failing.sort()).toEqual([...TASK_GAPS[scenario]!.failingChecks].sort());
      });
    }

    it.each(Object.keys(TASK_NOT_APPLICABLE))('%s exercises nothing in this release (every check skipped)', (scenario) => {
      const checks = ranOf(scenario).checks;
      expect(checks.length).toBeGreaterThan(0);
      expect(checks.filter((check) => check.status !== 'SKIPPED')).toEqual([]);
    });
  });
});
