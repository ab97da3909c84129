import type { ProblemDetail } from '../../../shared/domain-error.js';
import { validateDto } from '../../../shared/http/validate-dto.js';
import { RegisterSourceDto, toSourceSpec } from '../../sources/interface/source.dto.js';
import type { DeclaredSource } from '../application/apply-config/config-planner.js';
import type { DeclaredGroup } from '../application/apply-config/group-planner.js';
import type { DeclaredInterceptor } from '../application/apply-config/interceptor-planner.js';
import type { DeclaredKey } from '../application/apply-config/key-planner.js';
import { parseConfigYaml } from '../infrastructure/config-yaml.js';

export interface ConfigDocument {
  sources: DeclaredSource[];
  /** The file's `groups:`; undefined when it has none (then groups are left as they are, even with prune). */
  groups?: DeclaredGroup[];
  /** The file's `interceptors:`; undefined when it has none (then interceptors are left as they are, even with prune). */
  interceptors?: DeclaredInterceptor[];
  /** The file's `keys:`; undefined when it has none (then keys are left as they are, even with prune). */
  keys?: DeclaredKey[];
  /** Problems of the document as a whole; each source carries its own shape problems. */
  problems: ProblemDetail[];
}

const TOP_LEVEL_KEYS = ['sources', 'groups', 'interceptors', 'keys'];
/** More than a thousand sources in one file is a mistake or an attack, not a configuration. */
const MAX_SOURCES = 1000;
const MAX_KEYS = 1000;
const MAX_GROUPS = 1000;
const MAX_INTERCEPTORS = 1000;
const KEY_FIELDS = ['name', 'role', 'owner', 'expiresAt', 'allowedSources', 'allowedTools', 'allowedGroups', 'rateLimitPerMinute', 'key'];

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
  // Read whatever the sources are: the keys' problems are listed with theirs.
  const keys = 'keys' in document ? readKeys(document.keys, problems) : undefined;
  const groups = 'groups' in document ? readGroups(document.groups, problems) : undefined;
  const interceptors = 'interceptors' in document ? readInterceptors(document.interceptors, problems) : undefined;
  const rest = { ...(groups ? { groups } : {}), ...(interceptors ? { interceptors } : {}), ...(keys ? { keys } : {}) };
  const entries = document.sources ?? [];
  if (!Array.isArray(entries) || document.sources === null) {
    problems.push({ path: 'sources', message: 'must be a list (an empty list declares no source)' });
    return { sources: [], ...rest, problems };
  }
  if (entries.length > MAX_SOURCES) {
    problems.push({ path: 'sources', message: `declares ${entries.length} sources; at most ${MAX_SOURCES} fit in one file` });
    return { sources: [], ...rest, problems };
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
  return { sources, ...rest, problems };
}

/** The `groups:` entries: each a mapping (its fields are checked when planned, by the groups' own rule). */
function readGroups(entries: unknown, problems: ProblemDetail[]): DeclaredGroup[] {
  if (!Array.isArray(entries)) {
    problems.push({ path: 'groups', message: 'must be a list (an empty list declares no group: with prune, every group is removed)' });
    return [];
  }
  if (entries.length > MAX_GROUPS) {
    problems.push({ path: 'groups', message: `declares ${entries.length} groups; at most ${MAX_GROUPS} fit in one file` });
    return [];
  }
  const groups: DeclaredGroup[] = [];
  const firstIndex = new Map<string, number>();
  for (const [index, entry] of entries.entries()) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      groups.push({ spec: {}, shapeProblems: [{ path: 'body', message: 'must be a mapping with the group\'s name and selection' }] });
      continue;
    }
    const spec = entry as Record<string, unknown>;
    groups.push({ spec, shapeProblems: [] });
    if (typeof spec.name !== 'string') continue;
    const first = firstIndex.get(spec.name);
    if (first !== undefined) problems.push({ path: `groups[${index}].name`, message: `"${spec.name.slice(0, 100)}" is declared twice (first at groups[${first}])` });
    else firstIndex.set(spec.name, index);
  }
  return groups;
}

/** The `interceptors:` entries: each a mapping (its fields are checked when planned, by the interceptors' own check). */
function readInterceptors(entries: unknown, problems: ProblemDetail[]): DeclaredInterceptor[] {
  if (!Array.isArray(entries)) {
    problems.push({ path: 'interceptors', message: 'must be a list (an empty list declares no interceptor: with prune, every interceptor is removed)' });
    return [];
  }
  if (entries.length > MAX_INTERCEPTORS) {
    problems.push({ path: 'interceptors', message: `declares ${entries.length} interceptors; at most ${MAX_INTERCEPTORS} fit in one file` });
    return [];
  }
  const interceptors: DeclaredInterceptor[] = [];
  const firstIndex = new Map<string, number>();
  for (const [index, entry] of entries.entries()) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      interceptors.push({ spec: {}, shapeProblems: [{ path: 'body', message: "must be a mapping with the interceptor's name, kind and settings" }] });
      continue;
    }
    const spec = entry as Record<string, unknown>;
    interceptors.push({ spec, shapeProblems: [] });
    if (typeof spec.name !== 'string') continue;
    const first = firstIndex.get(spec.name);
    if (first !== undefined) problems.push({ path: `interceptors[${index}].name`, message: `"${spec.name.slice(0, 100)}" is declared twice (first at interceptors[${first}])` });
    else firstIndex.set(spec.name, index);
  }
  return interceptors;
}

/** The `keys:` entries: each a mapping of known fields (their values are checked when planned). */
function readKeys(entries: unknown, problems: ProblemDetail[]): DeclaredKey[] {
  if (!Array.isArray(entries)) {
    problems.push({ path: 'keys', message: 'must be a list (an empty list declares no key: with prune, every key is revoked)' });
    return [];
  }
  if (entries.length > MAX_KEYS) {
    problems.push({ path: 'keys', message: `declares ${entries.length} keys; at most ${MAX_KEYS} fit in one file` });
    return [];
  }
  const keys: DeclaredKey[] = [];
  const firstIndex = new Map<string, number>();
  for (const [index, entry] of entries.entries()) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      keys.push({ spec: { name: undefined, role: undefined }, shapeProblems: [{ path: 'body', message: 'must be a mapping with name, role and the key' }] });
      continue;
    }
    const fields = entry as Record<string, unknown>;
    const shapeProblems: ProblemDetail[] = [];
    for (const field of Object.keys(fields)) {
      if (!KEY_FIELDS.includes(field)) shapeProblems.push({ path: field.slice(0, 100), message: `is not a key setting (known: ${KEY_FIELDS.join(', ')})` });
    }
    const { key, ...spec } = fields;
    keys.push({ spec: { ...spec, name: spec.name, role: spec.role }, key, shapeProblems });
    if (typeof spec.name !== 'string') continue;
    const name = spec.name.trim();
    const first = firstIndex.get(name);
    if (first !== undefined) problems.push({ path: `keys[${index}].name`, message: `"${name.slice(0, 100)}" is declared twice (first at keys[${first}])` });
    else firstIndex.set(name, index);
  }
  return keys;
}
