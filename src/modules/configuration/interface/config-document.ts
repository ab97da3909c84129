import type { ProblemDetail } from '../../../shared/domain-error.js';
import { validateDto } from '../../../shared/http/validate-dto.js';
import { RegisterSourceDto, toSourceSpec } from '../../sources/interface/source.dto.js';
import type { DeclaredSource } from '../application/apply-config/config-planner.js';
import { parseConfigYaml } from '../infrastructure/config-yaml.js';

export interface ConfigDocument {
  sources: DeclaredSource[];
  /** Problems of the document as a whole; each source carries its own shape problems. */
  problems: ProblemDetail[];
}

const TOP_LEVEL_KEYS = ['sources'];
/** More than a thousand sources in one file is a mistake or an attack, not a configuration. */
const MAX_SOURCES = 1000;

/** A configuration file's text, parsed and shape-checked; every problem is listed, none thrown. */
export async function readConfigText(text: string): Promise<ConfigDocument> {
  const parsed = await parseConfigYaml(text);
  if (!parsed.ok) return { sources: [], problems: parsed.problems };
  return readConfigValue(parsed.value);
}

/** The same checks for a document that arrived as JSON. */
export async function readConfigValue(value: unknown): Promise<ConfigDocument> {
  if (value === null || value === undefined) {
    return { sources: [], problems: [{ path: 'body', message: 'is empty: declare `sources:` (an empty list removes nothing without prune)' }] };
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { sources: [], problems: [{ path: 'body', message: 'must be a mapping with a `sources:` list' }] };
  }
  const problems: ProblemDetail[] = [];
  const document = value as Record<string, unknown>;
  for (const key of Object.keys(document)) {
    if (!TOP_LEVEL_KEYS.includes(key)) problems.push({ path: key.slice(0, 100), message: `is not a known key (known: ${TOP_LEVEL_KEYS.join(', ')})` });
  }
  if (!('sources' in document)) problems.push({ path: 'sources', message: 'is required' });
  const entries = document.sources ?? [];
  if (!Array.isArray(entries)) {
    problems.push({ path: 'sources', message: 'must be a list' });
    return { sources: [], problems };
  }
  if (entries.length > MAX_SOURCES) {
    problems.push({ path: 'sources', message: `declares ${entries.length} sources; at most ${MAX_SOURCES} fit in one file` });
    return { sources: [], problems };
  }

  const sources: DeclaredSource[] = [];
  const firstIndex = new Map<string, number>();
  for (const [index, entry] of entries.entries()) {
    const { value: dto, problems: shapeProblems } = await validateDto(RegisterSourceDto, entry);
    sources.push({ spec: toSourceSpec(dto), shapeProblems });
    const name = typeof dto.name === 'string' ? dto.name : undefined;
    if (name === undefined) continue;
    const first = firstIndex.get(name);
    if (first !== undefined) problems.push({ path: `sources[${index}].name`, message: `"${name}" is declared twice (first at sources[${first}])` });
    else firstIndex.set(name, index);
  }
  return { sources, problems };
}
