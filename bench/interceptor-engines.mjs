// What each built-in interceptor engine costs per call: `npm run build && node bench/interceptor-engines.mjs`.
// Runs each engine in process, one call at a time, as the chain would run it for one interceptor:
// defaults and lock (three arguments each), deny with 5 rules that all have to be looked at (tool
// patterns, equals, an RE2 pattern, pathOutside, range), redact with every detector over a 10 KB
// text result with PII in it, the same without any, and 13 KB of structuredContent; cap on a 10 KB
// result within its limits and over them (truncated to 4 KB); output-schema on a result that
// matches its (compiled) schema; webhook, pre, to the docs' example policy service over loopback
// (docs/examples/interceptor-webhook.mjs, started here), which allows. Reports per call the mean,
// p50 and p99 in µs, and the CPU of this process per call (for the webhook, without the service's).
//
// Settings (environment): ENGINES_CALLS calls per case (default 20000), ENGINES_WARMUP (default 5000).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { quantile } from './lib/load.mjs';
import { startPolicyService } from './lib/policy-service.mjs';
import { killAllNow, stopAll } from './lib/processes.mjs';
import { proseWriter } from './lib/prose.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (path) => import(pathToFileURL(join(ROOT, 'dist/src', path)).href);
const { builtinEngines } = await dist('modules/interceptors/domain/engines/builtin-engines.js');
const { AjvSchemaChecks } = await dist('modules/interceptors/infrastructure/ajv-schema-checks.js');
const { anInterceptor, anInterceptedCall, aResult, text } = await dist('modules/interceptors/testing/engine-fixtures.js');
const { DEFAULT_SCHEMA_LIMITS } = await dist('shared/json-schema/schema-limits.js');
const { WebhookEngine } = await dist('modules/interceptors/infrastructure/webhook-engine.js');
const { InMemorySecretRepository } = await dist('modules/secrets/testing/in-memory-secret-repository.js');
const { hostPolicyLists } = await dist('shared/host-policy.js');

const CALLS = Number(process.env.ENGINES_CALLS || 20_000);
const WARMUP = Number(process.env.ENGINES_WARMUP || 5_000);
const hookSecret = randomBytes(32).toString('base64url');
process.on('exit', killAllNow);
const policy = await startPolicyService(ROOT, hookSecret);
const webhook = new WebhookEngine(new InMemorySecretRepository({ 'policy-hook-key': hookSecret }), { sourceHosts: hostPolicyLists(undefined, undefined).lists });
const engines = { ...builtinEngines({ schemaChecks: new AjvSchemaChecks(DEFAULT_SCHEMA_LIMITS) }), webhook };
const signal = new globalThis.AbortController().signal;

/** Deterministic, so every run measures the same texts. */
const { pick, prose } = proseWriter(42);

const planted = {};
const mixed = aResult([text(prose(10_240, true, planted))]);
const plain = aResult([text(prose(10_240, false))]);
const plantedInRows = {};
const structured = aResult([text('see structuredContent')], {
  rows: Array.from({ length: 100 }, (_, index) => ({ id: index, name: `customer ${index}`, note: prose(80, index % 5 === 0, plantedInRows), city: pick(['Oslo', 'Lyon', 'Graz']) })),
});
const bigResult = aResult(Array.from({ length: 10 }, () => text(prose(1000, false))));
const schema = { type: 'object', properties: { city: { type: 'string' }, celsius: { type: 'number' }, readings: { type: 'array', items: { type: 'number' } } }, required: ['city', 'celsius'] };

const cases = [
  ['defaults (3 arguments, 2 left out)', 'defaults', anInterceptor('defaults', { arguments: { limit: 10, format: 'json', options: { deep: true } } }), anInterceptedCall({ arguments: { query: 'x', limit: 5 } })],
  ['lock (3 arguments, 1 given equal)', 'lock', anInterceptor('lock', { arguments: { repo: 'acme/site', branch: 'main', options: { dryRun: true } } }), anInterceptedCall({ arguments: { query: 'x', repo: 'acme/site' } })],
  [
    'deny (5 rules, none matches)',
    'deny',
    anInterceptor('deny', {
      rules: [
        { tools: ['fs__write*', '*__delete_*'], message: 'No writes.' },
        { argument: 'repo', equals: 'acme/secret', message: 'Not that repository.' },
        { argument: 'query', pattern: String.raw`(?i)\b(drop|truncate)\s+table\b`, message: 'No DDL.' },
        { argument: 'options.path', pathOutside: '/srv/data', message: 'Only /srv/data.' },
        { argument: 'limit', range: { min: 1, max: 100 }, message: 'limit 1–100.' },
      ],
    }),
    anInterceptedCall({ tool: { qualifiedName: 'fs__read_file' }, arguments: { repo: 'acme/site', query: 'select name from users where id = 1', options: { path: '/srv/data/reports/../2024/q1.csv' }, limit: 20 } }),
  ],
  [`redact, all detectors: 10 KB text with PII (planted ${JSON.stringify(planted)})`, 'redact', anInterceptor('redact', {}), anInterceptedCall({ result: mixed })],
  ['redact, all detectors: 10 KB text without PII', 'redact', anInterceptor('redact', {}), anInterceptedCall({ result: plain })],
  [`redact, all detectors: 13 KB structuredContent, 300 strings (planted ${JSON.stringify(plantedInRows)})`, 'redact', anInterceptor('redact', {}), anInterceptedCall({ result: structured })],
  ['cap: 10 KB result within its limits', 'cap', anInterceptor('cap', { maxBytes: 51_200, maxBlocks: 20, maxTextLength: 2000 }), anInterceptedCall({ result: bigResult })],
  ['cap: 10 KB result truncated to 4 KB', 'cap', anInterceptor('cap', { maxBytes: 4096 }), anInterceptedCall({ result: bigResult })],
  ['output-schema: a matching result', 'output-schema', anInterceptor('output-schema', {}), anInterceptedCall({ tool: { outputSchema: schema }, result: aResult([], { city: 'Oslo', celsius: -3, readings: [1, 2, 3] }) })],
  ['webhook pre: the example policy service over loopback, allowing', 'webhook', anInterceptor('webhook', { url: policy.url, signingSecret: 'policy-hook-key' }), anInterceptedCall({ arguments: { customer: 'c-1042' } })],
];

const rows = [];
for (const [label, kind, interceptor, call] of cases) {
  const engine = engines[kind];
  const first = await engine.run(interceptor, interceptor.phase, call, signal);
  for (let index = 0; index < WARMUP; index++) await engine.run(interceptor, interceptor.phase, call, signal);
  const samples = new Float64Array(CALLS);
  const cpu = process.cpuUsage();
  for (let index = 0; index < CALLS; index++) {
    const started = performance.now();
    const verdict = engine.run(interceptor, interceptor.phase, call, signal);
    if (verdict instanceof Promise) await verdict;
    samples[index] = (performance.now() - started) * 1000;
  }
  const { user, system } = process.cpuUsage(cpu);
  samples.sort();
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  const changes = first.changes ? JSON.stringify(first.changes.counts ?? first.changes.paths?.length ?? '') : '';
  rows.push({ case: label, verdict: first.decision, changes, 'mean µs': mean.toFixed(1), 'p50 µs': quantile(samples, 0.5).toFixed(1), 'p99 µs': quantile(samples, 0.99).toFixed(1), 'CPU µs': ((user + system) / CALLS).toFixed(1) });
}
await webhook.onApplicationShutdown();
await stopAll();
// What this machine takes for the least a detector must do: one look at every character of the 10 KB text.
const plainText = plain.content[0].text;
const pass = () => {
  let digits = 0;
  for (let index = 0; index < plainText.length; index++) if (plainText.charCodeAt(index) < 58) digits++;
  return digits;
};
for (let index = 0; index < WARMUP; index++) pass();
const passStarted = performance.now();
for (let index = 0; index < CALLS; index++) pass();
rows.push({ case: 'for scale: one charCodeAt pass over the 10 KB text', verdict: '', changes: '', 'mean µs': (((performance.now() - passStarted) / CALLS) * 1000).toFixed(1), 'p50 µs': '', 'p99 µs': '', 'CPU µs': '' });

console.log(`interceptor engines, ${CALLS} calls per case after ${WARMUP} of warm-up, node ${process.version}`);
console.table(rows);
