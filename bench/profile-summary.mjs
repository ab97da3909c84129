// Summarises a V8 .cpuprofile (from `node --cpu-prof`, e.g. BENCH_CPU_PROF=dir npm run bench, or
// from bench/profile-calls.mjs):
//   node bench/profile-summary.mjs <file.cpuprofile> [top=25] [--calls=N]
// Prints busy time by layer of Toolplane, by stage of ExecuteTool, self time by module (package /
// source file / node internals), self time by function and inclusive ("total") time by function,
// each as a share of the busy (non-idle) samples and, given the number of calls the profile
// covers (--calls), in µs per call. Samples are taken on wall-clock ticks: time a thread spends
// descheduled inside a system call (e.g. a loopback write that wakes its peer) counts as busy.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath, URL } from 'node:url';

const options = process.argv.slice(2).filter((a) => a.startsWith('--'));
const [file, topArg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: node bench/profile-summary.mjs <file.cpuprofile> [top] [--calls=N]');
  process.exit(2);
}
const TOP = Number(topArg) || 25;
const CALLS = Number(options.find((o) => o.startsWith('--calls='))?.slice('--calls='.length)) || undefined;
const profile = JSON.parse(readFileSync(file, 'utf8'));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);

function location(frame) {
  let url = frame.url || '';
  if (url.startsWith('file://')) url = fileURLToPath(url);
  if (url.startsWith(ROOT)) url = relative(ROOT, url);
  return url;
}

function moduleOf(frame) {
  const url = location(frame);
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native/V8)';
  if (url.startsWith('node:internal/deps/undici')) return 'undici (node built-in fetch)';
  if (url.startsWith('node:internal/webstreams')) return 'node: web streams';
  if (/^node:_http_(server|incoming|outgoing|common)$/.test(url)) return 'node: http server';
  if (url.startsWith('node:')) return 'node: internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const dist = /^dist\/(src\/.+?)\.js$/.exec(url);
  if (dist) return dist[1];
  return url;
}

/** Which part of Toolplane a module belongs to (the nearest attributable frame of a sample decides). */
const LAYERS = [
  [/^(undici|node: web streams|@modelcontextprotocol\/client|zod|src\/upstream\/)/, 'outbound MCP client (SDK, zod, fetch and web streams, Toolplane transports)'],
  [/^(pg|pg-protocol|pg-pool|pg-types|pg-connection-string|typeorm|src\/modules\/executions\/|src\/modules\/audit\/|src\/shared\/database\/)/, 'database and record (execution record, queries)'],
  [/^(prom-client|src\/ops\/metrics\/)/, 'metrics'],
  [/^(pino|src\/shared\/logging)/, 'logging'],
  [/^(@modelcontextprotocol\/server|src\/modules\/mcp-server\/)/, 'inbound MCP (/mcp routes, the fast path, the SDK server)'],
  [/^(node: http server|fastify|@fastify\/|find-my-way|secure-json-parse|fast-json-stringify|light-my-request|avvio|@nestjs\/|class-validator|class-transformer|reflect-metadata|rxjs|src\/shared\/http\/|src\/modules\/access\/|src\/modules\/execution\/interface\/)/, 'inbound REST (fastify, Nest, DTO validation, auth)'],
  [/^(ajv|re2js|src\/modules\/execution\/|src\/modules\/catalog\/|src\/modules\/sources\/)/, 'execution pipeline (route, validation, policies, bulkhead)'],
];
/** A frame of one of ExecuteTool's stages (or the handler between them). */
const STAGE = /src\/modules\/execution\/application\/execute-tool\/(?:stages\/([a-z-]+)|(execute-tool\.handler))\.js$/;
const LOADER = /^node:internal\/modules\//;

function layerOf(leafId) {
  for (let id = leafId; id !== undefined; id = parent.get(id)) {
    const frame = nodes.get(id).callFrame;
    if (LOADER.test(location(frame))) return 'module loading (start-up)';
    if (frame.functionName === '(garbage collector)') return 'garbage collection';
    const module = moduleOf(frame);
    for (const [pattern, layer] of LAYERS) if (pattern.test(module)) return layer;
  }
  return 'other (node internals, timers, sockets without a caller above)';
}

/** The ExecuteTool stage a sample's stack is under (the nearest one), else `outside the stages: <layer>`. */
function stageOf(leafId) {
  for (let id = leafId; id !== undefined; id = parent.get(id)) {
    const match = STAGE.exec(location(nodes.get(id).callFrame));
    if (match) return match[1] ? `stage ${match[1]}` : 'the handler between stages';
  }
  return `outside the stages: ${layerOf(leafId)}`;
}

const key = (frame) => `${frame.functionName || '(anonymous)'} ${location(frame)}:${frame.lineNumber + 1}`;

const selfByFunction = new Map();
const selfByModule = new Map();
const totalByFunction = new Map();
const byLayer = new Map();
const byStage = new Map();
const add = (map, k, v) => map.set(k, (map.get(k) ?? 0) + v);
let busy = 0;
let idle = 0;

const { samples, timeDeltas } = profile;
for (let i = 0; i < samples.length; i++) {
  // timeDeltas[i] is the time before sample i; attribute the following interval to it.
  const dt = (timeDeltas[i + 1] ?? timeDeltas[i] ?? 0) / 1000; // ms
  const leaf = nodes.get(samples[i]);
  const name = leaf.callFrame.functionName;
  if (name === '(idle)' || name === '(program)' || name === '(root)') {
    idle += dt;
    continue;
  }
  busy += dt;
  add(selfByFunction, key(leaf.callFrame), dt);
  add(selfByModule, moduleOf(leaf.callFrame), dt);
  add(byLayer, layerOf(leaf.id), dt);
  add(byStage, stageOf(leaf.id), dt);
  const seen = new Set();
  for (let id = leaf.id; id !== undefined; id = parent.get(id)) {
    const frame = nodes.get(id).callFrame;
    if (frame.functionName === '(root)') continue;
    const k = key(frame);
    if (seen.has(k)) continue;
    seen.add(k);
    add(totalByFunction, k, dt);
  }
}

function print(title, map, top = TOP) {
  console.log(`\n## ${title}\n`);
  console.log(`| share of busy | ms |${CALLS ? ' µs per call |' : ''} where |`);
  console.log(`|---:|---:|${CALLS ? '---:|' : ''}---|`);
  for (const [k, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`| ${((ms / busy) * 100).toFixed(1)}% | ${ms.toFixed(0)} |${CALLS ? ` ${((ms * 1000) / CALLS).toFixed(1)} |` : ''} \`${k}\` |`);
  }
}

console.log(`# ${relative(process.cwd(), file)}`);
console.log(`\nbusy ${(busy / 1000).toFixed(2)} s, idle/program ${(idle / 1000).toFixed(2)} s${CALLS ? `; ${CALLS} calls, ${((busy * 1000) / CALLS).toFixed(0)} µs busy per call` : ''}`);
print('Busy time by layer (nearest attributable frame)', byLayer);
print('Busy time by stage of ExecuteTool (nearest stage frame; work a stage hands to another turn, such as the group-committed INSERT, counts outside)', byStage, Infinity);
print('Self time by module', selfByModule);
print('Self time by function', selfByFunction);
print('Total (inclusive) time by function', totalByFunction);
