import type { ProblemList } from '../../../shared/domain-error.js';
import { canonicalJson } from '../../../shared/canonical-json.js';
import { SCOPE_PATTERN } from '../../access/domain/tool-scope.js';
import { QUALIFIED_NAME_PATTERN } from '../../inventory/domain/qualified-name.js';
import { SOURCE_NAME_PATTERN } from '../../sources/domain/source-settings.js';
import { HINT_NAMES, type AnnotationHints, type GroupSelector, type GroupSpec, type HintName, type ToolOverride } from './group.js';
import { isServableName } from './served-tools.js';

/** A group's name follows a source's rule: a lowercase slug, used in `/mcp/groups/{name}`. */
export const GROUP_NAME_PATTERN = SOURCE_NAME_PATTERN;

export const GROUP_LIMITS = {
  description: 2_000,
  selectors: 50,
  patternsPerSelector: 100,
  names: 1_000,
  overrides: 1_000,
  title: 200,
  toolDescription: 8_000,
  argumentsPerOverride: 100,
  argumentName: 200,
  /** The canonical JSON of one override's defaults and locked values together. */
  argumentBytes: 16_384,
} as const;

/** What a group declares, in the order a file writes it. */
export const GROUP_FIELDS = ['name', 'description', 'select', 'include', 'exclude', 'overrides'] as const;
const SPEC_FIELDS: ReadonlySet<string> = new Set(GROUP_FIELDS);
const SELECTOR_FIELDS = new Set(['sources', 'tools', 'annotations']);
const OVERRIDE_FIELDS = new Set(['name', 'title', 'description', 'annotations', 'defaults', 'locked']);
const HINTS: ReadonlySet<string> = new Set(HINT_NAMES);

/** A group as a request gives it: any JSON. */
export type GroupSpecInput = Record<string, unknown>;

/**
 * Checks a whole group (every problem added under its JSON path) and answers it normalized:
 * absent lists empty, absent description empty. `partial`: only the fields given are checked
 * (PATCH), and the answer holds only those.
 */
export function checkGroupSpec(input: GroupSpecInput, problems: ProblemList, partial = false): Partial<GroupSpec> {
  const spec: Partial<GroupSpec> = {};
  for (const key of Object.keys(input)) if (!SPEC_FIELDS.has(key)) problems.add(key, 'is not a known property');
  const has = (key: string) => input[key] !== undefined;

  if (!partial || has('name')) {
    if (typeof input.name !== 'string' || !GROUP_NAME_PATTERN.test(input.name)) {
      problems.add('name', 'must be a lowercase slug: letters, digits and dashes, 1-63 characters, not starting with a dash');
    } else spec.name = input.name;
  }
  if (!partial || has('description')) {
    const description = input.description ?? '';
    if (typeof description !== 'string' || description.length > GROUP_LIMITS.description || hasControlCharacters(description, true)) {
      problems.add('description', `must be text of at most ${GROUP_LIMITS.description} characters`);
    } else spec.description = description;
  }
  if (!partial || has('select')) spec.select = selectors(input.select, problems);
  if (!partial || has('include')) spec.include = qualifiedNames(input.include, 'include', problems);
  if (!partial || has('exclude')) spec.exclude = qualifiedNames(input.exclude, 'exclude', problems);
  if (!partial || has('overrides')) spec.overrides = overrides(input.overrides, problems);
  return spec;
}

function selectors(value: unknown, problems: ProblemList): GroupSelector[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.add('select', 'must be an array of selectors');
    return [];
  }
  if (value.length > GROUP_LIMITS.selectors) problems.add('select', `must hold at most ${GROUP_LIMITS.selectors} selectors`);
  const out: GroupSelector[] = [];
  value.slice(0, GROUP_LIMITS.selectors).forEach((item, i) => {
    const path = `select[${i}]`;
    if (!isObject(item)) {
      problems.add(path, 'must be an object with sources, tools or annotations');
      return;
    }
    for (const key of Object.keys(item)) if (!SELECTOR_FIELDS.has(key)) problems.add(`${path}.${key}`, 'is not a known property');
    const selector: GroupSelector = {};
    if (item.sources !== undefined) selector.sources = patterns(item.sources, `${path}.sources`, problems);
    if (item.tools !== undefined) selector.tools = patterns(item.tools, `${path}.tools`, problems);
    if (item.annotations !== undefined) selector.annotations = hints(item.annotations, `${path}.annotations`, problems);
    if (item.sources === undefined && item.tools === undefined && item.annotations === undefined) {
      problems.add(path, 'must give at least one of sources, tools, annotations (an empty selector would select every tool)');
    }
    out.push(selector);
  });
  return out;
}

function patterns(value: unknown, path: string, problems: ProblemList): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    problems.add(path, 'must be a non-empty array of name patterns');
    return [];
  }
  if (value.length > GROUP_LIMITS.patternsPerSelector) problems.add(path, `must hold at most ${GROUP_LIMITS.patternsPerSelector} patterns`);
  const out: string[] = [];
  value.slice(0, GROUP_LIMITS.patternsPerSelector).forEach((pattern, i) => {
    if (typeof pattern !== 'string' || !SCOPE_PATTERN.test(pattern)) problems.add(`${path}[${i}]`, 'must be a name pattern: letters, digits, `_ . -` and `*` (any run of characters), 1-200 characters');
    else out.push(pattern);
  });
  return out;
}

function hints(value: unknown, path: string, problems: ProblemList): AnnotationHints {
  if (!isObject(value)) {
    problems.add(path, `must be an object of ${HINT_NAMES.join(', ')}`);
    return {};
  }
  const out: AnnotationHints = {};
  for (const [key, hint] of Object.entries(value)) {
    if (!HINTS.has(key)) problems.add(`${path}.${key}`, `is not a known hint (${HINT_NAMES.join(', ')})`);
    else if (typeof hint !== 'boolean') problems.add(`${path}.${key}`, 'must be true or false');
    else out[key as HintName] = hint;
  }
  return out;
}

function qualifiedNames(value: unknown, path: string, problems: ProblemList): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.add(path, 'must be an array of qualified tool names');
    return [];
  }
  if (value.length > GROUP_LIMITS.names) problems.add(path, `must hold at most ${GROUP_LIMITS.names} names`);
  const out = new Set<string>();
  value.slice(0, GROUP_LIMITS.names).forEach((name, i) => {
    if (typeof name !== 'string' || !QUALIFIED_NAME_PATTERN.test(name)) problems.add(`${path}[${i}]`, 'must be a qualified tool name (letters, digits, `_` and `-`, 1-64 characters)');
    else out.add(name);
  });
  return [...out];
}

function overrides(value: unknown, problems: ProblemList): Record<string, ToolOverride> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) {
    problems.add('overrides', 'must be an object keyed by qualified tool name');
    return {};
  }
  const entries = Object.entries(value);
  if (entries.length > GROUP_LIMITS.overrides) problems.add('overrides', `must hold at most ${GROUP_LIMITS.overrides} tools`);
  const out: Record<string, ToolOverride> = {};
  const servedBy = new Map<string, string>();
  for (const [qualifiedName, item] of entries.slice(0, GROUP_LIMITS.overrides)) {
    const path = `overrides.${qualifiedName}`;
    if (!QUALIFIED_NAME_PATTERN.test(qualifiedName)) problems.add(path, 'must be keyed by a qualified tool name');
    const override = toolOverride(item, path, problems);
    if (!override) continue;
    if (override.name !== undefined) {
      const other = servedBy.get(override.name);
      if (other !== undefined) problems.add(`${path}.name`, `"${override.name}" is already the name of ${other} in this group`);
      else servedBy.set(override.name, qualifiedName);
    }
    Object.defineProperty(out, qualifiedName, { value: override, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function toolOverride(value: unknown, path: string, problems: ProblemList): ToolOverride | undefined {
  if (!isObject(value)) {
    problems.add(path, 'must be an object');
    return undefined;
  }
  for (const key of Object.keys(value)) if (!OVERRIDE_FIELDS.has(key)) problems.add(`${path}.${key}`, 'is not a known property (name, title, description, annotations, defaults, locked)');
  const override: ToolOverride = {};
  if (value.name !== undefined) {
    if (typeof value.name !== 'string' || !isServableName(value.name)) {
      problems.add(`${path}.name`, 'must be a tool name every LLM API takes (letters, digits, `_` and `-`, 1-64 characters) without `__`, which only qualified names hold');
    } else override.name = value.name;
  }
  if (value.title !== undefined) {
    if (typeof value.title !== 'string' || value.title.length > GROUP_LIMITS.title || hasControlCharacters(value.title)) problems.add(`${path}.title`, `must be text of at most ${GROUP_LIMITS.title} characters`);
    else override.title = value.title;
  }
  if (value.description !== undefined) {
    if (typeof value.description !== 'string' || value.description.length > GROUP_LIMITS.toolDescription || hasControlCharacters(value.description, true)) {
      problems.add(`${path}.description`, `must be text of at most ${GROUP_LIMITS.toolDescription} characters`);
    } else override.description = value.description;
  }
  if (value.annotations !== undefined) override.annotations = hints(value.annotations, `${path}.annotations`, problems);
  const defaults = checkArgumentValues(value.defaults, `${path}.defaults`, problems);
  const locked = checkArgumentValues(value.locked, `${path}.locked`, problems);
  if (defaults && locked) {
    for (const name of Object.keys(defaults)) if (Object.hasOwn(locked, name)) problems.add(`${path}.defaults.${name}`, 'is also locked: an argument is either locked or has a default');
  }
  if (defaults || locked) {
    const bytes = Buffer.byteLength(canonicalJson({ defaults: defaults ?? {}, locked: locked ?? {} }));
    if (bytes > GROUP_LIMITS.argumentBytes) problems.add(path, `defaults and locked values must take at most ${GROUP_LIMITS.argumentBytes} bytes of JSON (${bytes} given)`);
  }
  if (defaults) override.defaults = defaults;
  if (locked) override.locked = locked;
  return override;
}

/** Argument values by name (locked or default values; an interceptor's `defaults` and `lock`): at most GROUP_LIMITS.argumentsPerOverride, none null. */
export function checkArgumentValues(value: unknown, path: string, problems: ProblemList): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    problems.add(path, 'must be an object of argument names and values');
    return undefined;
  }
  const entries = Object.entries(value);
  if (entries.length > GROUP_LIMITS.argumentsPerOverride) problems.add(path, `must hold at most ${GROUP_LIMITS.argumentsPerOverride} arguments`);
  const out: Record<string, unknown> = {};
  for (const [name, argument] of entries.slice(0, GROUP_LIMITS.argumentsPerOverride)) {
    if (name.length === 0 || name.length > GROUP_LIMITS.argumentName || hasControlCharacters(name)) problems.add(`${path}.${name}`, `must be named by 1-${GROUP_LIMITS.argumentName} characters`);
    else if (argument === null) problems.add(`${path}.${name}`, 'must be a JSON value other than null');
    // Defined, not assigned: an argument named `__proto__` is an argument like any other.
    else Object.defineProperty(out, name, { value: argument, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Control characters; `lines`: newlines and tabs are text. */
export function hasControlCharacters(text: string, lines = false): boolean {
  // eslint-disable-next-line no-control-regex
  return (lines ? /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/ : /[\u0000-\u001f\u007f]/).test(text);
}
