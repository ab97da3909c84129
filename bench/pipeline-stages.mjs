// What each stage of ExecuteTool costs per call: `npm run build && node bench/pipeline-stages.mjs`.
// Runs the pipeline as the module builds it (src/modules/execution/testing/execute-tool-harness.ts:
// every stage, the route cache, rate limits, circuits and bulkheads) over in-memory fakes of its
// ports — but with the real argument validator (ajv) — one call at a time, and times each stage of
// every call (performance.now() around its `run`, until its promise settles). Also timed alone:
// the whole call without the timers, scrub (a function the handler calls), and the work the
// real recorder does per record before its INSERT (the row's texts and the chain's digest).
// What is not here — the HTTP edges, the upstream's transport, the INSERT — is in the profiles
// of bench/profile-calls.mjs.
//
// Settings (environment): STAGES_CALLS calls per round (default 20000), STAGES_ROUNDS (default 5),
// STAGES_WARMUP calls before the first round (default 20000), STAGES_READ_ONLY=1 for a read-only tool
// (no started record, as the HTTP echo's `echo`; default: server-everything's `echo`, which is not),
// STAGES_GROUP=1 to call it through a tool group that serves it as `say` with its `message` locked,
// STAGES_INTERCEPTORS for the interceptors' stages (intercept-arguments, intercept-result) as
// ExecutionModule plugs them: `none` in force (the default), `elsewhere` (20 in force, pre and post,
// none of which applies to the call: scoped to other sources, tools or a group), `one` (one cheap
// pre interceptor that applies: an engine that allows at once).
// Logging is at `warn`, as the benchmarks run Toolplane: the call's `info` line is not built.
import { performance } from 'node:perf_hooks';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (path) => import(pathToFileURL(join(ROOT, 'dist/src', path)).href);
const { ExecuteToolHarness } = await dist('modules/execution/testing/execute-tool-harness.js');
const { aRoute } = await dist('modules/execution/testing/routes.js');
const { aGroup } = await dist('modules/groups/testing/builders.js');
const { AjvArgumentValidator } = await dist('modules/execution/infrastructure/ajv-argument-validator.js');
const { scrubOutcome } = await dist('modules/execution/application/execute-tool/stages/scrub.js');
const { storedRecordTexts } = await dist('modules/executions/infrastructure/execution-chain-rows.js');
const { SecretScrubber } = await dist('shared/secret-scrubber.js');
const { logLevel } = await dist('shared/logging/log-level.js');
const { Logger } = await import('@nestjs/common');
const { InterceptorChain } = await dist('modules/interceptors/application/interceptor-chain.js');
const { FixedInterceptors } = await dist('modules/interceptors/testing/fixed-interceptors.js');
const { anInterceptor } = await dist('modules/interceptors/testing/interceptor-specs.js');

const CALLS = Number(process.env.STAGES_CALLS || 20_000);
const ROUNDS = Number(process.env.STAGES_ROUNDS || 5);
const WARMUP = Number(process.env.STAGES_WARMUP || 20_000);
const READ_ONLY = process.env.STAGES_READ_ONLY === '1';
const GROUP = process.env.STAGES_GROUP === '1';
const INTERCEPTORS = process.env.STAGES_INTERCEPTORS || 'none';
if (!['none', 'elsewhere', 'one'].includes(INTERCEPTORS)) throw new Error(`STAGES_INTERCEPTORS is none, elsewhere or one, not ${INTERCEPTORS}`);

const STAGES = ['resolve', 'intake', 'admit', 'groupArguments', 'prepareArguments', 'interceptArguments', 'guard', 'locateUpstream', 'attachCredential', 'recordStart', 'invoke', 'interceptResult', 'recordOutcome', 'report'];
const NAMES = {
  groupArguments: 'group-arguments',
  prepareArguments: 'prepare-arguments',
  interceptArguments: 'intercept-arguments (pre)',
  locateUpstream: 'locate-upstream',
  attachCredential: 'attach-credential',
  recordStart: 'record-start',
  interceptResult: 'intercept-result (post)',
  recordOutcome: 'record-outcome',
};

// As the floor's Toolplane runs (LOG_LEVEL=warn): the call's own line is not built.
logLevel.install((level) => level === 'warn' || level === 'error' || level === 'fatal');
Logger.overrideLogger(['warn', 'error', 'fatal']);
// The interceptors in force, and an engine that allows at once (a built-in check costs about as little).
const ALLOW = Object.freeze({ decision: 'allow' });
const inForce = new FixedInterceptors(
  INTERCEPTORS === 'one'
    ? [anInterceptor('cheap', { kind: 'deny', settings: { rules: [] }, scope: { source: 'everything' } })]
    : INTERCEPTORS === 'elsewhere'
      ? Array.from({ length: 20 }, (_, i) =>
          anInterceptor(`elsewhere-${i}`, {
            kind: 'deny',
            settings: { rules: [] },
            phase: i % 2 === 0 ? 'pre' : 'post',
            scope: i % 3 === 0 ? { source: `other-${i}` } : i % 3 === 1 ? { tools: [`everything__other_${i}*`] } : { group: `team-${i}` },
          }),
        )
      : [],
);
const chain = new InterceptorChain(inForce, [{ kind: 'deny', run: () => ALLOW }]);
const harness = new ExecuteToolHarness({ interceptorChain: chain });
const route = aRoute('everything__echo', { tool: { annotations: READ_ONLY ? { readOnlyHint: true } : { title: 'Echo Tool' } }, source: { maxConcurrency: 256 } });
harness.withTool(route);
const validator = new AjvArgumentValidator(harness.config.schemaLimits);
harness.validator.validate = (hash, schema, args) => validator.validate(hash, schema, args);
// The fakes keep what they saw; a benchmark would only grow them.
const forget = () => {
  harness.recorder.records.length = 0;
  harness.recorder.started.length = 0;
  harness.invoker.requests.length = 0;
  harness.validator.checked.length = 0;
  harness.timeline.length = 0;
};

if (GROUP) harness.withGroup(aGroup('support', { include: [route.tool.qualifiedName], overrides: { [route.tool.qualifiedName]: { name: 'say', locked: { message: 'hello' } } } }));
const input = GROUP ? { group: 'support', qualifiedName: 'say', arguments: {} } : { qualifiedName: route.tool.qualifiedName, arguments: { message: 'hello' } };
const call = () => harness.call(input);
// The answer a call gets, once: everything succeeds and nothing is refused.
const first = await call();
if (first.record.status !== 'succeeded') throw new Error(`the call did not succeed: ${JSON.stringify(first.record)}`);

/** Per stage, the time of each call of the round (ms). */
let times = {};
let index = 0;
for (const name of STAGES) {
  const stage = harness.stages[name] ?? harness.interceptorStages[name];
  const run = stage.run.bind(stage);
  stage.run = (...args) => {
    const started = performance.now();
    const result = run(...args);
    if (result && typeof result.then === 'function') {
      return result.then(
        (value) => {
          if (times[name]) times[name][index] += performance.now() - started;
          return value;
        },
        (error) => {
          if (times[name]) times[name][index] += performance.now() - started;
          throw error;
        },
      );
    }
    if (times[name]) times[name][index] += performance.now() - started;
    return result;
  };
}

async function round(timed) {
  times = timed ? Object.fromEntries([...STAGES, 'call'].map((name) => [name, new Float64Array(CALLS)])) : {};
  const whole = new Float64Array(CALLS);
  for (index = 0; index < CALLS; index++) {
    const started = performance.now();
    await call();
    whole[index] = performance.now() - started;
    if ((index & 1023) === 0) forget();
  }
  forget();
  return timed ? { ...times, call: whole } : { call: whole };
}

/** The same function timed alone, `n` times. */
function alone(fn, n = CALLS) {
  const each = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    fn();
    each[i] = performance.now() - started;
  }
  return each;
}

const mean = (a) => a.reduce((s, v) => s + v, 0) / a.length;
const median = (a) => Float64Array.from(a).sort()[a.length >> 1];
const µs = (ms) => (ms * 1000).toFixed(1);

for (let i = 0; i < WARMUP; i++) {
  await call();
  if ((i & 1023) === 0) forget();
}
const record = first.record;
const outcome = { status: record.status, isError: record.isError, result: record.result, error: record.error };
const rows = new Map();
const keep = (name, values) => {
  if (!rows.has(name)) rows.set(name, { means: [], medians: [] });
  rows.get(name).means.push(mean(values));
  rows.get(name).medians.push(median(values));
};
for (let r = 0; r < ROUNDS; r++) {
  // Untimed first, so the whole call is measured without the stages' timers.
  keep('the whole call, untimed', (await round(false)).call);
  const timed = await round(true);
  for (const name of STAGES) keep(name, timed[name]);
  keep('the whole call, timed', timed.call);
  keep('scrub (no secrets)', alone(() => scrubOutcome(outcome, SecretScrubber.none)));
  keep("the recorder's texts and digest of the record", alone(() => storedRecordTexts(record)));
}

const range = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length > 1 ? `${µs(sorted[0])}–${µs(sorted.at(-1))}` : µs(sorted[0]);
};
const interceptorsNote = { none: 'no interceptor in force', elsewhere: '20 interceptors in force, none applying', one: 'one cheap pre interceptor applying' }[INTERCEPTORS];
console.log(`# ExecuteTool, stage by stage (${CALLS} calls × ${ROUNDS} rounds, ${READ_ONLY ? 'a read-only tool' : 'a tool that is not read-only'}${GROUP ? ', through a group' : ''}, ${interceptorsNote}, Node.js ${process.version})\n`);
console.log('| stage | mean µs per call (rounds) | median µs per call (rounds) |');
console.log('|---|---|---|');
for (const [name, { means, medians }] of rows) console.log(`| ${NAMES[name] ?? name} | ${range(means)} | ${range(medians)} |`);
const stagesSum = (pick) => STAGES.reduce((s, name) => s + Math.min(...rows.get(name)[pick]), 0);
console.log(`\nSum of the stages' lowest means: ${µs(stagesSum('means'))} µs; of their lowest medians: ${µs(stagesSum('medians'))} µs.`);
process.exit(0);
