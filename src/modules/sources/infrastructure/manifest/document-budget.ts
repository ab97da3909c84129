import { type JsonPathSegment, manifestPath } from '../../domain/manifest/manifest-path.js';
import type { ManifestFileName, ManifestProblem } from '../../domain/manifest/plugin-manifest.js';

/** Far above any real manifest, low enough that validating it stays cheap. */
export const MAX_DOCUMENT_VALUES = 20_000;
/** Every list and map in the schemas is capped well below this. */
const LARGE_CONTAINER = 200;
const MAX_REPORTED_CONTAINERS = 10;

/**
 * Refuses documents too big to be worth validating: schema validation visits every value,
 * and junk of a megabyte would keep it busy for seconds. `_meta` contents are not counted
 * as the schema does not look into them. Breadth-first and iterative, so nesting depth costs nothing.
 */
export function checkDocumentBudget(file: ManifestFileName, document: unknown): ManifestProblem[] {
  const queue: { value: unknown; path: JsonPathSegment[] }[] = isContainer(document) ? [{ value: document, path: [] }] : [];
  const large: ManifestProblem[] = [];
  let values = 1;

  for (let head = 0; head < queue.length; head++) {
    const { value, path } = queue[head]!;
    const entries: [JsonPathSegment, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value as Record<string, unknown>).filter(([key]) => key !== '_meta');

    if (entries.length > LARGE_CONTAINER && large.length < MAX_REPORTED_CONTAINERS) {
      const what = Array.isArray(value) ? 'items' : 'properties';
      large.push({ path: manifestPath(file, path), message: `has ${entries.length} ${what}, far more than allowed` });
    }
    values += entries.length;
    if (values > MAX_DOCUMENT_VALUES) {
      return [
        ...large,
        { path: file, message: `holds more than ${MAX_DOCUMENT_VALUES} values outside _meta and is not validated further` },
      ];
    }
    for (const [key, child] of entries) {
      if (isContainer(child)) queue.push({ value: child, path: [...path, key] });
    }
  }
  return [];
}

function isContainer(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}
