import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument, visit } from 'yaml';
import type { ProblemDetail } from './domain-error.js';

/** Aliases a document may expand: a few hundred nested ones would otherwise build gigabytes. */
const MAX_ALIASES = 100;
/** Values (mappings, sequences, scalars) a document may hold: 1,000 sources of 100 values each. */
export const MAX_YAML_VALUES = 100_000;
const MAX_DEPTH = 64;
/** Explicit tags that keep a document JSON (`!!binary`, `!!timestamp`, `!!set`… would not). */
const JSON_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'seq', 'map'].map((t) => `tag:yaml.org,2002:${t}`));

export type YamlText = { ok: true; value: unknown } | { ok: false; problems: ProblemDetail[] };

/**
 * Parses a configuration file: YAML 1.2 core schema (only tags that keep it JSON, no merge keys), unique keys,
 * bounded aliases, depth and size, and no key that would reach an object's prototype. Every
 * problem is reported with its line and column. Pure and synchronous: large texts are parsed on
 * the worker thread (see parseConfigYaml).
 */
export function parseYamlText(text: string): YamlText {
  const document = parseDocument(text, { version: '1.2', schema: 'core', uniqueKeys: true, merge: false, prettyErrors: true, strict: true });
  const problems: ProblemDetail[] = [];
  for (const error of [...document.errors, ...document.warnings]) {
    const position = error.linePos?.[0];
    problems.push({ path: position ? `line ${position.line}, column ${position.col}` : 'body', message: firstLine(error.message) });
  }
  if (problems.length > 0) return { ok: false, problems };

  let values = 0;
  let aliases = 0;
  let tooDeep = false;
  visit(document, {
    Node(_key, node, path) {
      if (isAlias(node)) aliases++;
      if (isScalar(node) || isMap(node) || isSeq(node)) {
        values++;
        if (node.tag !== undefined && !JSON_TAGS.has(node.tag)) {
          const line = node.range ? lineOf(text, node.range[0]) : undefined;
          problems.push({ path: line ? `line ${line}` : 'body', message: `the tag ${JSON.stringify(node.tag.replace('tag:yaml.org,2002:', '!!').slice(0, 60))} is not allowed (the file is JSON data)` });
        }
      }
      if ((isMap(node) || isSeq(node)) && path.filter((n) => isMap(n) || isSeq(n)).length >= MAX_DEPTH) tooDeep = true;
      if (values > MAX_YAML_VALUES || aliases > MAX_ALIASES || tooDeep) return visit.BREAK;
      return undefined;
    },
    Pair(_key, pair) {
      if (isPair(pair) && isScalar(pair.key) && pair.key.value === '__proto__') {
        const line = pair.key.range ? lineOf(text, pair.key.range[0]) : undefined;
        problems.push({ path: line ? `line ${line}` : 'body', message: 'the key "__proto__" is not allowed' });
      }
      return undefined;
    },
  });
  if (values > MAX_YAML_VALUES) problems.push({ path: 'body', message: `holds more than ${MAX_YAML_VALUES} values` });
  if (aliases > MAX_ALIASES) problems.push({ path: 'body', message: `uses more than ${MAX_ALIASES} aliases` });
  if (tooDeep) problems.push({ path: 'body', message: `nests deeper than ${MAX_DEPTH} levels` });
  if (problems.length > 0) return { ok: false, problems };
  try {
    return { ok: true, value: document.toJS({ maxAliasCount: MAX_ALIASES }) };
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    // The library counts aliases as they expand: a few nested ones can stand for millions of values.
    return { ok: false, problems: [{ path: 'body', message: /alias/i.test(message) ? 'has aliases that expand to too many values' : firstLine(message) || 'cannot be read' }] };
  }
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '').slice(0, 300);
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
