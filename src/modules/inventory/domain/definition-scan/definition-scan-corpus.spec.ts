import { readdirSync, readFileSync } from 'node:fs';
import { DefinitionScanner, highestSeverity, type DefinitionFinding, type FindingSeverity, type ScannedTool } from './index.js';

// The corpus (corpus/): clean definitions of real servers (their tools/list as dumped or
// published) and near-misses, poisoned definitions labelled with the rules that should find them,
// and the other sources' tools the poisoned ones aim at. Every definition is scanned with every
// other source of the corpus as its neighbours, as a refresh scans a catalog.

interface Declared {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: Record<string, unknown>;
}
interface PoisonedCase {
  id: string;
  sourceName: string;
  expected: { rules: string[]; severity: FindingSeverity };
  tool: Declared;
}

const corpus = (path: string): any => JSON.parse(readFileSync(new URL(`./corpus/${path}`, import.meta.url), 'utf8'));
const scanned = (sourceName: string, tool: Declared): ScannedTool => ({ sourceName, ...tool });

const clean: ScannedTool[] = [];
for (const file of readdirSync(new URL('./corpus/clean/', import.meta.url))) {
  const content = corpus(`clean/${file}`);
  expect(typeof content.origin).toBe('string');
  if (Array.isArray(content.tools)) clean.push(...content.tools.map((tool: Declared) => scanned(content.sourceName, tool)));
  else clean.push(...content.cases.map(({ sourceName, tool }: { sourceName: string; tool: Declared }) => scanned(sourceName, tool)));
}
const neighbours: ScannedTool[] = corpus('neighbours.json').tools;
const poisoned: PoisonedCase[] = corpus('poisoned/poisoned.json').cases;
const scanner = new DefinitionScanner([...neighbours, ...clean]);

/** What the held-out set reached when it was first scanned; a floor, so a change that loses ground fails. */
const HELD_OUT_FLOORS = { high: { precision: 0.72, recall: 0.66 }, any: { precision: 0.72, recall: 0.66 } };

const flaggedAt = (threshold: 'high' | 'any', findings: DefinitionFinding[]): boolean =>
  threshold === 'high' ? highestSeverity(findings) === 'high' : findings.length > 0;
const ratio = (part: number, whole: number): number => (whole === 0 ? 1 : part / whole);
const shown = (tool: ScannedTool, findings: DefinitionFinding[]): string =>
  `${tool.sourceName}/${tool.name}: ${findings.map((finding) => `${finding.rule}@${finding.path}:${finding.severity}`).join(', ')}`;

describe('the definition scan over its corpus', () => {
  const cleanFindings = clean.map((tool) => ({ tool, findings: scanner.scan(tool) }));
  const poisonedFindings = poisoned.map((entry) => ({ entry, findings: scanner.scan(scanned(entry.sourceName, entry.tool)) }));

  it('holds at least 30 clean and 30 poisoned definitions', () => {
    expect(clean.length).toBeGreaterThanOrEqual(30);
    expect(poisoned.length).toBeGreaterThanOrEqual(30);
  });

  it.each(['high', 'any'] as const)('finds poisoned definitions with precision ≥ 0.9 and recall ≥ 0.95, flagged at %s', (threshold) => {
    const truePositives = poisonedFindings.filter(({ findings }) => flaggedAt(threshold, findings)).length;
    const falsePositives = cleanFindings.filter(({ findings }) => flaggedAt(threshold, findings));
    // At `high`, recall counts the definitions that should reach high; at `any`, all of them.
    const expectedFlagged = poisonedFindings.filter(({ entry }) => threshold === 'any' || entry.expected.severity === 'high');
    const found = expectedFlagged.filter(({ findings }) => flaggedAt(threshold, findings)).length;
    const precision = ratio(truePositives, truePositives + falsePositives.length);
    const recall = ratio(found, expectedFlagged.length);
    const missed = expectedFlagged.filter(({ findings }) => !flaggedAt(threshold, findings)).map(({ entry }) => entry.id);
    process.stdout.write(
      `definition scan, flagged at ${threshold}: precision ${precision.toFixed(3)} (${truePositives} poisoned, ${falsePositives.length} of ${clean.length} clean flagged), ` +
        `recall ${recall.toFixed(3)} (${found} of ${expectedFlagged.length})` +
        `${falsePositives.length > 0 ? `\n  clean flagged: ${falsePositives.map(({ tool, findings }) => shown(tool, findings)).join('; ')}` : ''}` +
        `${missed.length > 0 ? `\n  missed: ${missed.join(', ')}` : ''}\n`,
    );
    expect(precision).toBeGreaterThanOrEqual(0.9);
    expect(recall).toBeGreaterThanOrEqual(0.95);
  });

  it('finds each poisoned definition by the rules it is labelled with (≥ 0.9 of the labels)', () => {
    let labels = 0;
    const missing: string[] = [];
    for (const { entry, findings } of poisonedFindings) {
      const rules = new Set(findings.map((finding) => finding.rule));
      for (const rule of entry.expected.rules) {
        labels++;
        if (!rules.has(rule)) missing.push(`${entry.id}: ${rule}`);
      }
    }
    const recall = ratio(labels - missing.length, labels);
    process.stdout.write(`definition scan, labelled rules found: ${labels - missing.length} of ${labels} (${recall.toFixed(3)})${missing.length > 0 ? `\n  not found: ${missing.join('; ')}` : ''}\n`);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });
});

describe('the definition scan over its held-out set (written after the rules, never used to change them)', () => {
  const heldOut = corpus('held-out/held-out.json') as { poisoned: PoisonedCase[]; clean: { sourceName: string; tool: Declared }[] };
  const poisonedFindings = heldOut.poisoned.map((entry) => ({ entry, findings: scanner.scan(scanned(entry.sourceName, entry.tool)) }));
  const cleanFindings = heldOut.clean.map(({ sourceName, tool }) => ({ tool: scanned(sourceName, tool), findings: scanner.scan(scanned(sourceName, tool)) }));

  it.each(['high', 'any'] as const)('reports precision and recall flagged at %s, above the floors it reached when written', (threshold) => {
    const found = poisonedFindings.filter(({ findings }) => flaggedAt(threshold, findings));
    const falsePositives = cleanFindings.filter(({ findings }) => flaggedAt(threshold, findings));
    const precision = ratio(found.length, found.length + falsePositives.length);
    const recall = ratio(found.length, poisonedFindings.length);
    const missed = poisonedFindings.filter(({ findings }) => !flaggedAt(threshold, findings)).map(({ entry }) => entry.id);
    process.stdout.write(
      `held-out, flagged at ${threshold}: precision ${precision.toFixed(3)} (${falsePositives.length} of ${cleanFindings.length} clean flagged), recall ${recall.toFixed(3)} (${found.length} of ${poisonedFindings.length})` +
        `${falsePositives.length > 0 ? `\n  clean flagged: ${falsePositives.map(({ tool, findings }) => shown(tool, findings)).join('; ')}` : ''}` +
        `${missed.length > 0 ? `\n  missed: ${missed.join(', ')}` : ''}\n`,
    );
    expect(precision).toBeGreaterThanOrEqual(HELD_OUT_FLOORS[threshold].precision);
    expect(recall).toBeGreaterThanOrEqual(HELD_OUT_FLOORS[threshold].recall);
  });
});
