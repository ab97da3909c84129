// What the definition scan costs per tool: `npm run build && node bench/definition-scan.mjs`.
// Scans, one tool at a time, (1) the scan's corpus (src/modules/inventory/domain/definition-scan/
// corpus: real servers' tools, near-misses, poisoned definitions) and (2) the 1,000-tool catalog
// of the catalog workload (bench/lib/catalog-inventory.mjs: 25 sources of 40 tools), each with
// NEIGHBOURS other-source tools as the scanner's neighbours, as a refresh builds it; and (3) the
// worst a definition can be: every text at the scan's per-text limit of words the patterns start
// with. Reports the scanner's construction, and per tool the mean, p50 and p99 in µs.
//
// Settings (environment): SCAN_ROUNDS passes over each set (default 50), SCAN_NEIGHBOURS (default 200).
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { catalogSourceNames, catalogTools } from './lib/catalog-inventory.mjs';
import { quantile } from './lib/load.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { DefinitionScanner } = await import(pathToFileURL(join(ROOT, 'dist/src/modules/inventory/domain/definition-scan/index.js')).href);
const ROUNDS = Number(process.env.SCAN_ROUNDS || 50);
const NEIGHBOURS = Number(process.env.SCAN_NEIGHBOURS || 200);

const CORPUS = join(ROOT, 'src/modules/inventory/domain/definition-scan/corpus');
const readJson = (path) => JSON.parse(readFileSync(join(CORPUS, path), 'utf8'));
const corpus = [];
for (const file of readdirSync(join(CORPUS, 'clean'))) {
  const content = readJson(`clean/${file}`);
  if (content.tools) corpus.push(...content.tools.map((tool) => ({ sourceName: content.sourceName, ...tool })));
  else corpus.push(...content.cases.map(({ sourceName, tool }) => ({ sourceName, ...tool })));
}
corpus.push(...readJson('poisoned/poisoned.json').cases.map(({ sourceName, tool }) => ({ sourceName, ...tool })));
const heldOut = readJson('held-out/held-out.json');
corpus.push(...[...heldOut.poisoned, ...heldOut.clean].map(({ sourceName, tool }) => ({ sourceName, ...tool })));

const catalogSources = catalogSourceNames(25);
const catalog = catalogSources.flatMap((sourceName, index) => catalogTools(index, 40).map((tool) => ({ sourceName, ...tool })));
// Neighbours: the tools of sources named apart from every scanned one (a second team's catalog).
const neighbours = catalogSourceNames(25 * 4)
  .slice(25)
  .flatMap((sourceName, index) => catalogTools(index + 25, 40).map((tool) => ({ sourceName, ...tool })))
  .slice(0, NEIGHBOURS);
neighbours.push(...readJson('neighbours.json').tools);

const worstText = 'ignore all the your '.repeat(820);
const worst = [{
  sourceName: 'hostile', name: 'x'.repeat(64), title: worstText, description: worstText,
  inputSchema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`p${i}`, { type: 'string', description: worstText }])) },
}];

function measure(label, tools) {
  let started = performance.now();
  const scanner = new DefinitionScanner(neighbours);
  const construction = performance.now() - started;
  let flagged = 0;
  for (const tool of tools) if (scanner.scan(tool).length > 0) flagged++;
  for (let round = 0; round < 5; round++) for (const tool of tools) scanner.scan(tool);
  const samples = new Float64Array(ROUNDS * tools.length);
  let n = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const tool of tools) {
      started = performance.now();
      scanner.scan(tool);
      samples[n++] = (performance.now() - started) * 1000;
    }
  }
  samples.sort();
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  const row = { set: label, tools: tools.length, withFindings: flagged, 'construct ms': construction.toFixed(2), 'mean µs': mean.toFixed(1), 'p50 µs': quantile(samples, 0.5).toFixed(1), 'p99 µs': quantile(samples, 0.99).toFixed(1) };
  return row;
}

console.log(`definition scan, ${neighbours.length} neighbour tools, ${ROUNDS} rounds, node ${process.version}`);
console.table([measure('corpus', corpus), measure('catalog (1,000 tools)', catalog), measure('worst case (8 texts × 16 KiB)', worst)]);
