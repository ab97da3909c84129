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
/** More than a thousand entries of a kind in one file is a mistake or an attack, not a configuration. */
const MAX_ENTRIES = 1000;
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
  const keys = 'keys' in document ? await readList('keys', document.keys, problems, KEYS) : undefined;
  const groups = 'groups' in document ? await readList('groups', document.groups, problems, GROUPS) : undefined;
  const interceptors = 'interceptors' in document ? await readList('interceptors', document.interceptors, problems, INTERCEPTORS) : undefined;
  const sources = await readList('sources', document.sources === undefined ? [] : document.sources, problems, SOURCES);
  return { sources, ...(groups ? { groups } : {}), ...(interceptors ? { interceptors } : {}), ...(keys ? { keys } : {}), problems };
}

/** How the entries of one of the document's lists are read. */
interface ListReading<T> {
  /** What an empty list declares, said when the value is not a list. */
  readonly emptyMeans: string;
  /** An entry as declared (its own shape problems with it), and the name it declares, if any. */
  read(entry: unknown): { declared: T; name?: string } | Promise<{ declared: T; name?: string }>;
}

/** A list of the document's: a list, not too long, each entry read, each name declared once. */
async function readList<T>(field: string, entries: unknown, problems: ProblemDetail[], reading: ListReading<T>): Promise<T[]> {
  if (!Array.isArray(entries)) {
    problems.push({ path: field, message: `must be a list (${reading.emptyMeans})` });
    return [];
  }
  if (entries.length > MAX_ENTRIES) {
    problems.push({ path: field, message: `declares ${entries.length} ${field}; at most ${MAX_ENTRIES} fit in one file` });
    return [];
  }
  const list: T[] = [];
  const firstIndex = new Map<string, number>();
  for (const [index, entry] of entries.entries()) {
    const { declared, name } = await reading.read(entry);
    list.push(declared);
    if (name === undefined) continue;
    const first = firstIndex.get(name);
    if (first !== undefined) problems.push({ path: `${field}[${index}].name`, message: `"${name.slice(0, 100)}" is declared twice (first at ${field}[${first}])` });
    else firstIndex.set(name, index);
  }
  return list;
}

const isMapping = (entry: unknown): entry is Record<string, unknown> => entry !== null && typeof entry === 'object' && !Array.isArray(entry);
const nameOf = (spec: Record<string, unknown>) => (typeof spec.name === 'string' ? spec.name : undefined);

/** The `sources:` entries: each checked as a registration's body is. */
const SOURCES: ListReading<DeclaredSource> = {
  emptyMeans: 'an empty list declares no source',
  async read(entry) {
    const { value: dto, problems: shapeProblems } = await validateDto(RegisterSourceDto, entry);
    return { declared: { spec: toSourceSpec(dto), shapeProblems }, name: typeof dto.name === 'string' ? dto.name : undefined };
  },
};

/** A named kind's entries: each a mapping, whose fields are checked when planned, by the kind's own rule. */
function mappingsOf(noun: string, holding: string): ListReading<{ spec: Record<string, unknown>; shapeProblems: ProblemDetail[] }> {
  return {
    emptyMeans: `an empty list declares no ${noun}: with prune, every ${noun} is removed`,
    read: (entry) =>
      isMapping(entry)
        ? { declared: { spec: entry, shapeProblems: [] }, name: nameOf(entry) }
        : { declared: { spec: {}, shapeProblems: [{ path: 'body', message: `must be a mapping with the ${noun}'s ${holding}` }] } },
  };
}

/** The `groups:` entries. */
const GROUPS: ListReading<DeclaredGroup> = mappingsOf('group', 'name and selection');
/** The `interceptors:` entries. */
const INTERCEPTORS: ListReading<DeclaredInterceptor> = mappingsOf('interceptor', 'name, kind and settings');

/** The `keys:` entries: each a mapping of known fields (their values are checked when planned). */
const KEYS: ListReading<DeclaredKey> = {
  emptyMeans: 'an empty list declares no key: with prune, every key is revoked',
  read(entry) {
    if (!isMapping(entry)) return { declared: { spec: { name: undefined, role: undefined }, shapeProblems: [{ path: 'body', message: 'must be a mapping with name, role and the key' }] } };
    const shapeProblems: ProblemDetail[] = [];
    for (const field of Object.keys(entry)) {
      if (!KEY_FIELDS.includes(field)) shapeProblems.push({ path: field.slice(0, 100), message: `is not a key setting (known: ${KEY_FIELDS.join(', ')})` });
    }
    const { key, ...spec } = entry;
    return { declared: { spec: { ...spec, name: spec.name, role: spec.role }, key, shapeProblems }, name: nameOf(spec)?.trim() };
  },
};
